import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target, programCall } from "../../../core/program/target.js";

// The two-step DEFAULT_ADMIN_ROLE transfer, one contract per call (docs/deployment.md#admin-handover).
// A Safe signer gets data.safe as on every build route; four of them batch through /api/v1/safe/batch.

export const adminHandoverBegin: BuildHandler<typeof routes.adminHandoverBegin> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: body.input.contract,
    fn: "beginDefaultAdminTransfer",
    args: [body.input.newAdmin],
    from: body.key,
  });

const step =
  (fn: "acceptDefaultAdminTransfer" | "cancelDefaultAdminTransfer"): BuildHandler<typeof routes.adminHandoverAccept> =>
  async ({ body }, ctx) =>
    programCall(await target(ctx, body.program), { contract: body.input.contract, fn, args: [], from: body.key });

export const adminHandoverAccept = step("acceptDefaultAdminTransfer");
export const adminHandoverCancel = step("cancelDefaultAdminTransfer");
