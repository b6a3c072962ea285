import { z } from "zod";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { WebhookParams, WebhookView } from "../ledger/webhooks/common.js";

/**
 * The operator's hand on every tenant's webhook subscriptions: list them, hold one (paused until
 * the operator resumes it; its owner cannot), or delete it.
 */
export const OperatorWebhookView = WebhookView.extend({
  createdBy: z.string().meta({ description: "Who owns it: the API key id, or session:<email> for a console account" }),
  operatorHold: z.boolean().meta({ description: "Paused by the operator: only the operator resumes it" }),
}).meta({ id: "OperatorWebhook" });

export const operatorWebhooksList = defineRoute({
  method: "get",
  path: "/api/v1/operator/webhooks",
  summary: "Operator: every tenant's webhook subscriptions, newest first (admin key)",
  tag: "operator",
  auth: "key",
  query: z
    .object({
      createdBy: z
        .string()
        .min(1)
        .max(400)
        .optional()
        .meta({ description: "Only the webhooks of this API key id or session:<email>" }),
      status: z.enum(["active", "paused", "disabled"]).optional(),
    })
    .strict(),
  response: success(z.array(OperatorWebhookView)),
});

export const operatorWebhookPause = defineRoute({
  method: "post",
  path: "/api/v1/operator/webhooks/:webhookId/pause",
  summary: "Operator: hold a subscription (admin key); nothing is sent, and its owner cannot resume it",
  tag: "operator",
  auth: "key",
  params: WebhookParams,
  response: success(OperatorWebhookView),
});

export const operatorWebhookResume = defineRoute({
  method: "post",
  path: "/api/v1/operator/webhooks/:webhookId/resume",
  summary: "Operator: lift the hold and send again (admin key); a revoked key's subscription stays disabled",
  tag: "operator",
  auth: "key",
  params: WebhookParams,
  response: success(OperatorWebhookView),
  errors: ["CONFLICT"],
});

export const operatorWebhookDelete = defineRoute({
  method: "delete",
  path: "/api/v1/operator/webhooks/:webhookId",
  summary: "Operator: delete any subscription and its delivery log (admin key)",
  tag: "operator",
  auth: "key",
  params: WebhookParams,
  response: success(z.object({ deleted: z.literal(true) })),
});
