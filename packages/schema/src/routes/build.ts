import { z } from "zod";
import { Address, PositiveAmount, ProgramRef, Uint } from "../primitives.js";
import { defineRoute, routeFamily } from "../route.js";
import { TxNonce, UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";

/** `{input, key}` body of the /api/v1 build, role and freeze routes. */
export const buildBody = <T extends z.ZodRawShape>(input: T) => buildEnvelope(z.strictObject(input));

/** The same envelope around an input schema that is more than a plain object. */
export const buildEnvelope = <I extends z.ZodType>(input: I) =>
  z.strictObject({
    input,
    key: Address.meta({ description: "Address that will sign the returned transaction" }),
    program: ProgramRef,
    nonce: TxNonce,
  });

const tx = success(UnsignedTx);
const buildRoute = routeFamily({ method: "post", tag: "build", auth: "open", response: tx });

export const buildMint = buildRoute({
  path: "/api/v1/build/mint",
  summary: "Build Factory.mint: deposit collateral, receive SP (receiver defaults to key)",
  body: buildBody({ asset: Address, amount: PositiveAmount, receiver: Address.optional() }),
});

export const buildRedeem = buildRoute({
  path: "/api/v1/build/redeem",
  summary: "Build Factory.requestRedeem (to defaults to key; expectedBasketMode to the current mode)",
  body: buildBody({
    asset: Address,
    amount: PositiveAmount,
    to: Address.optional(),
    expectedBasketMode: z.boolean().optional(),
  }),
});

export const buildFinalizeRedeem = buildRoute({
  path: "/api/v1/build/finalize-redeem",
  summary: "Build Factory.finalizeRedeem",
  body: buildBody({ requestId: Uint }),
});

export const buildTransfer = buildRoute({
  path: "/api/v1/build/transfer",
  summary: "Build Points.transfer (SP) from key to `to`",
  body: buildBody({ to: Address, amount: PositiveAmount }),
});
