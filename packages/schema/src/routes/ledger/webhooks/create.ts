import { z } from "zod";
import { Address, CampaignId, ProgramRef } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookEventType, WebhookView } from "./common.js";

export const ledgerWebhookCreate = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks",
  summary:
    "Subscribe a URL to a program's ledger events (Standard Webhooks); the signing secret is in this answer only",
  tag: "ledger",
  auth: "key",
  status: 201,
  body: z
    .object({
      program: ProgramRef.optional(),
      webhookUrl: z
        .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
        .max(2000)
        .meta({ description: "Public http(s) URL; private, loopback and link-local targets are refused" }),
      eventTypes: z.array(WebhookEventType).min(1).max(50).optional().meta({ description: "Default: every event" }),
      campaignId: CampaignId.optional(),
      holder: Address.optional(),
    })
    .strict(),
  response: success(
    WebhookView.extend({
      secret: z.string().meta({ description: "whsec_… : verify signatures with it; shown once" }),
    }),
  ),
  errors: ["CONFLICT"],
});
