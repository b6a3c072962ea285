import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target, programCall } from "../../../core/program/target.js";

/** Factory.finalizeRedeem(requestId): an executor at any time, the requester after the delay. */
export const buildFinalizeRedeem: BuildHandler<typeof routes.buildFinalizeRedeem> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "factory",
    fn: "finalizeRedeem",
    args: [BigInt(body.input.requestId)],
    from: body.key,
  });
