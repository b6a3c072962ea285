import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookParams } from "./common.js";

export const ledgerWebhookDelete = defineRoute({
  method: "delete",
  path: "/api/v1/ledger/webhooks/:webhookId",
  summary: "Delete a subscription and its delivery log",
  tag: "ledger",
  auth: "key",
  params: WebhookParams,
  response: success(z.object({ deleted: z.literal(true) })),
});
