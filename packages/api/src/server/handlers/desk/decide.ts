import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { deskTarget, requireManagerSignature } from "../../../core/desk/access.js";
import { pendingRequests } from "../../../core/desk/queue.js";
import { DeskStore } from "../../../core/desk/store.js";
import { decisionView } from "./view.js";

/**
 * Records a manager's decision on a pending request; the desk's job carries it out with the
 * executor (approve: finalizeRedeemBatch; reject: rejectRedeem). One decision per request.
 */
export const redemptionDeskDecide: Handler<typeof routes.redemptionDeskDecide> = async (
  { params, body, caller },
  ctx,
) => {
  const t = await deskTarget(ctx, caller, params.programId);
  if (body.decision === "reject" && body.reason === "") {
    throw new ApiError("INVALID_INPUT", "body.reason: a rejection needs a reason", {
      issues: [{ field: "body.reason", message: "a rejection needs a reason" }],
    });
  }
  const signer = await requireManagerSignature(t, body, {
    kind: "decision",
    requestId: params.requestId,
    decision: body.decision,
    reason: body.reason,
    signedUntil: body.signedUntil,
  });
  const entry = (await pendingRequests(t)).pending.find((p) => p.requestId === params.requestId);
  if (!entry) throw new ApiError("NOT_FOUND", `no pending redemption request ${params.requestId}`);
  const d = await new DeskStore(ctx.db).decide(t.program.id, {
    requestId: params.requestId,
    decision: body.decision,
    reason: body.reason,
    decidedBy: signer,
  });
  if (!d)
    throw new ApiError("CONFLICT", `request ${params.requestId} already has a decision`, { reason: "ALREADY_DECIDED" });
  ctx.logger.info({ programId: t.program.id, requestId: params.requestId, decision: body.decision }, "desk decision");
  return { ...entry, decision: decisionView(d) };
};
