import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { deskTarget } from "../../../core/desk/access.js";
import { deskView } from "./view.js";

/** The program's redemption desk (its tenant or an admin key; others 404). */
export const redemptionDeskGet: Handler<typeof routes.redemptionDeskGet> = async ({ params, caller }, ctx) =>
  deskView(ctx, await deskTarget(ctx, caller, params.programId));
