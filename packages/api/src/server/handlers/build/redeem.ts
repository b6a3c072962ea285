import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target } from "../../../core/program/target.js";
import { requestRedeemCall } from "../../../core/program/redeem.js";

export const buildRedeem: BuildHandler<typeof routes.buildRedeem> = async ({ body }, ctx) =>
  requestRedeemCall(await target(ctx, body.program), body.key, body.input);
