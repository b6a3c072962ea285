import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { verificationView } from "../../../core/verify/view.js";

/** GET a program's source verification (docs/deployment.md#source-verification). */
export const getFactoryVerification: Handler<typeof routes.getFactoryVerification> = async ({ params }, ctx) => {
  const p = await ctx.programs.get(params.id);
  return verificationView(ctx, p.id, p.chainId);
};
