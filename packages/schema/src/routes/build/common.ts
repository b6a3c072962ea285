import { z } from "zod";
import { Address, ProgramRef } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { TxNonce, UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";

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
/** A POST /api/v1/build route: open, answers the unsigned transaction. */
export const buildRoute = routeFamily({ method: "post", tag: "build", auth: "open", response: tx });
