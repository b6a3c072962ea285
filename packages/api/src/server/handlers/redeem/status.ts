import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { chainTarget } from "../../../core/program/target.js";
import { redeemRequestView } from "../../../core/program/redeem.js";

export const chainRedeemStatus: Handler<typeof routes.chainRedeemStatus> = async ({ params }, ctx) =>
  redeemRequestView(await chainTarget(ctx, params.chainId, params.factoryAddr), params.requestId);
