import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { deskTarget, requireManagerSignature } from "../../../core/desk/access.js";
import { DeskStore } from "../../../core/desk/store.js";
import { deskView } from "./view.js";

/** Sets the policy: the program's tenant sends it, a MANAGER_ROLE holder signed it. */
export const redemptionDeskPolicySet: Handler<typeof routes.redemptionDeskPolicySet> = async (
  { params, body, caller },
  ctx,
) => {
  const t = await deskTarget(ctx, caller, params.programId);
  const signer = await requireManagerSignature(t, body, {
    kind: "policy",
    policy: body.policy,
    version: body.version,
    signedUntil: body.signedUntil,
  });
  if (!(await new DeskStore(ctx.db).setPolicy(t.program.id, body.policy, body.version, signer))) {
    throw new ApiError("CONFLICT", "the desk changed since this was signed: read its version again and sign anew", {
      reason: "VERSION_MOVED",
    });
  }
  ctx.logger.info({ programId: t.program.id, policy: body.policy, manager: signer }, "redemption desk policy set");
  return deskView(ctx, t);
};
