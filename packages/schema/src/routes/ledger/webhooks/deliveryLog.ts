import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { NextCursor, pageQuery } from "../common.js";
import { WebhookDeliveryView, WebhookParams } from "./common.js";

export const ledgerWebhookDeliveries = defineRoute({
  method: "get",
  path: "/api/v1/ledger/webhooks/:webhookId/deliveries",
  summary: "A subscription's delivery log, newest event first",
  tag: "ledger",
  auth: "key",
  params: WebhookParams,
  query: pageQuery(
    z
      .string()
      .regex(/^[0-9]{1,15}\.[0-9]{1,9}\.[0-9]$/, "must be a nextCursor from a previous answer")
      .meta({ description: "The previous page's nextCursor" }),
  ).omit({ program: true }),
  response: success(z.object({ deliveries: z.array(WebhookDeliveryView), nextCursor: NextCursor })),
});
