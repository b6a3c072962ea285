import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookParams, WebhookView } from "./common.js";

export const ledgerWebhookPause = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks/:webhookId/pause",
  summary: "Pause a subscription: events keep queueing, nothing is sent until it resumes",
  tag: "ledger",
  auth: "key",
  params: WebhookParams,
  response: success(WebhookView),
  errors: ["CONFLICT"],
});
