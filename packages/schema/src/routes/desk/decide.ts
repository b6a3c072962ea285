import { z } from "zod";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { DeskDecisionKind, DeskQueueEntry, DeskReason, DeskRequestParams, DeskSigned } from "./common.js";

export const redemptionDeskDecide = defineRoute({
  method: "post",
  path: "/api/v1/programs/:programId/redemption-desk/requests/:requestId/decision",
  summary:
    "Redemption desk: approve a pending request (the executor finalizes it) or reject it with a reason (the executor calls rejectRedeem), signed by a MANAGER_ROLE holder",
  tag: "redemption-desk",
  errors: ["CONFLICT"],
  auth: "key",
  params: DeskRequestParams,
  body: z.strictObject({ decision: DeskDecisionKind, reason: DeskReason, ...DeskSigned }),
  response: success(DeskQueueEntry),
});
