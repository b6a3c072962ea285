import { z } from "zod";
import { Address, PositiveAmount, ProgramRef, Uint } from "../primitives.js";
import { defineRoute } from "../route.js";
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

export const buildMint = defineRoute({
  method: "post",
  path: "/api/v1/build/mint",
  summary: "Build Factory.mint: deposit collateral, receive SP (receiver defaults to key)",
  tag: "build",
  auth: "open",
  body: buildBody({ asset: Address, amount: PositiveAmount, receiver: Address.optional() }),
  response: tx,
});

export const buildRedeem = defineRoute({
  method: "post",
  path: "/api/v1/build/redeem",
  summary: "Build Factory.requestRedeem (to defaults to key; expectedBasketMode to the current mode)",
  tag: "build",
  auth: "open",
  body: buildBody({
    asset: Address,
    amount: PositiveAmount,
    to: Address.optional(),
    expectedBasketMode: z.boolean().optional(),
  }),
  response: tx,
});

export const buildFinalizeRedeem = defineRoute({
  method: "post",
  path: "/api/v1/build/finalize-redeem",
  summary: "Build Factory.finalizeRedeem",
  tag: "build",
  auth: "open",
  body: buildBody({ requestId: Uint }),
  response: tx,
});

export const buildTransfer = defineRoute({
  method: "post",
  path: "/api/v1/build/transfer",
  summary: "Build Points.transfer (SP) from key to `to`",
  tag: "build",
  auth: "open",
  body: buildBody({ to: Address, amount: PositiveAmount }),
  response: tx,
});
