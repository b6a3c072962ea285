import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { target } from "../../../core/program/target.js";
import { requestRedeemTx } from "../../../core/program/redeem.js";

export const buildRedeem: Handler<typeof routes.buildRedeem> = async ({ body }, ctx) =>
  requestRedeemTx(await target(ctx, body.program), body.key, body.input);
