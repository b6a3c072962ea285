import { z } from "zod";
import { Address, CampaignId, ProgramRef } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookEventType, WebhookView } from "./common.js";

export const ledgerWebhookCreate = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks",
  summary:
    "Subscribe a URL to a program's ledger events (Standard Webhooks); the signing secret is in this answer only. The same URL and filter again answers the existing subscription",
  tag: "ledger",
  auth: "key",
  status: 201,
  alsoAnswers: {
    200: "The caller already has a subscription of this program with this URL and filter (the same event types in any order, campaign and holder): that subscription, `created` false and `secret` null (the secret is shown once, in the answer that created it)",
  },
  body: z
    .object({
      program: ProgramRef.optional(),
      webhookUrl: z
        .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
        .max(2000)
        .meta({ description: "Public http(s) URL; private, loopback and link-local targets are refused" }),
      eventTypes: z
        .array(WebhookEventType)
        .min(1)
        .max(50)
        .optional()
        .meta({ description: "Default: every event. Kept sorted, each once; with `*` among them, just `*`" }),
      campaignId: CampaignId.optional(),
      holder: Address.optional(),
    })
    .strict(),
  response: success(
    z
      .discriminatedUnion("created", [
        WebhookView.extend({
          created: z.literal(true).meta({ description: "A new subscription (201)" }),
          secret: z.string().meta({ description: "whsec_… : verify signatures with it; shown once, here" }),
        }),
        WebhookView.extend({
          created: z.literal(false).meta({ description: "The existing subscription of this URL and filter (200)" }),
          secret: z.null().meta({ description: "Not shown again: it was in the answer that created the subscription" }),
        }),
      ])
      .meta({ id: "WebhookCreated" }),
  ),
  errors: ["CONFLICT"],
});
