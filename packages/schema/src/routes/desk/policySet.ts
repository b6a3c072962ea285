import { z } from "zod";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { DeskParams, DeskPolicy, DeskSigned, DeskView } from "./common.js";

export const redemptionDeskPolicySet = defineRoute({
  method: "put",
  path: "/api/v1/programs/:programId/redemption-desk/policy",
  summary:
    "Redemption desk: set the policy (automatic, manual, off), signed by a MANAGER_ROLE holder of the Factory; 403 MISSING_ROLE otherwise, 409 when the version moved",
  tag: "redemption-desk",
  errors: ["CONFLICT"],
  auth: "key",
  params: DeskParams,
  body: z.strictObject({
    policy: DeskPolicy,
    version: z
      .number()
      .int("must be a whole number")
      .min(0, "must not be negative")
      .max(2 ** 31, "must be at most 2^31")
      .meta({ description: "The desk's current version (from GET), so an old signature cannot be replayed" }),
    ...DeskSigned,
  }),
  response: success(DeskView),
});
