import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookParams, WebhookView } from "./common.js";

export const ledgerWebhookResume = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks/:webhookId/resume",
  summary: "Resume a paused or disabled subscription (queued deliveries are retried at once)",
  tag: "ledger",
  auth: "key",
  params: WebhookParams,
  response: success(WebhookView),
  errors: ["CONFLICT"],
});
