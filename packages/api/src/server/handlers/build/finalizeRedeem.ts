import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { target, tx } from "../../../core/program/target.js";

/** Factory.finalizeRedeem(requestId): an executor at any time, the requester after the delay. */
export const buildFinalizeRedeem: Handler<typeof routes.buildFinalizeRedeem> = async ({ body }, ctx) =>
  tx(await target(ctx, body.program), {
    contract: "factory",
    fn: "finalizeRedeem",
    args: [BigInt(body.input.requestId)],
    from: body.key,
  });
