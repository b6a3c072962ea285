import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookView } from "./common.js";

export const ledgerWebhookList = defineRoute({
  method: "get",
  path: "/api/v1/ledger/webhooks",
  summary: "The caller's webhook subscriptions, newest first",
  tag: "ledger",
  auth: "key",
  response: success(z.array(WebhookView)),
});
