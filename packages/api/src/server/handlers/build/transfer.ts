import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { target, tx } from "../../../core/program/target.js";

/** Points.transfer(to, amount) from the key; both must be on the transfer allowlist while restricted. */
export const buildTransfer: Handler<typeof routes.buildTransfer> = async ({ body }, ctx) =>
  tx(await target(ctx, body.program), {
    contract: "points",
    fn: "transfer",
    args: [body.input.to, BigInt(body.input.amount)],
    from: body.key,
  });
