import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { target } from "../../../core/program/target.js";
import { redeemRequestView } from "../../../core/program/redeem.js";

export const readRedeemRequest: Handler<typeof routes.readRedeemRequest> = async ({ params, query }, ctx) =>
  redeemRequestView(await target(ctx, query.program), params.requestId);
