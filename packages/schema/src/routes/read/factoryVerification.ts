import { z } from "zod";
import { PathText } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { SourceVerificationView } from "../../sourceVerification.js";

/** A program's source verification on its chain's explorers (docs/deployment.md#source-verification). */
export const getFactoryVerification = defineRoute({
  method: "get",
  path: "/api/v1/contracts/factories/:id/verification",
  summary:
    "A program's source verification: each proxy and release contract per explorer (pending, verified with its link, failed with the explorer's reason, or skipped when the chain has no explorer configured)",
  tag: "contracts",
  auth: "open",
  params: z.object({ id: PathText(100) }),
  errors: ["NOT_FOUND"],
  response: success(SourceVerificationView),
});
