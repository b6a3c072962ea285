import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target, programCall } from "../../../core/program/target.js";

/** Points.transfer(to, amount) from the key; both must be on the transfer allowlist while restricted. */
export const buildTransfer: BuildHandler<typeof routes.buildTransfer> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "points",
    fn: "transfer",
    args: [body.input.to, BigInt(body.input.amount)],
    from: body.key,
  });
