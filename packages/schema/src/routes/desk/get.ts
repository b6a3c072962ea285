import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { DeskParams, DeskView } from "./common.js";

export const redemptionDeskGet = defineRoute({
  method: "get",
  path: "/api/v1/programs/:programId/redemption-desk",
  summary: "Redemption desk: the program's policy, the executor's status and the queue of pending requests",
  tag: "redemption-desk",
  auth: "key",
  params: DeskParams,
  response: success(DeskView),
});
