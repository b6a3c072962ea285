import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { target } from "../../program/target.js";
import { requestRedeemTx } from "../../program/redeem.js";

export const buildRedeem: Handler<typeof routes.buildRedeem> = async ({ body }, ctx) =>
  requestRedeemTx(await target(ctx, body.program), body.key, body.input);
