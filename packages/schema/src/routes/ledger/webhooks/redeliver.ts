import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookDeliveryView, WebhookParams } from "./common.js";

export const ledgerWebhookRedeliver = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
  summary: "Send one delivery again (same webhook-id), now",
  tag: "ledger",
  auth: "key",
  params: WebhookParams.extend({ deliveryId: z.uuid("must be a delivery id (UUID)") }),
  response: success(WebhookDeliveryView),
});
