import { z } from "zod";
import { Address } from "../../../primitives.js";

/** The event names a subscription may ask for: the ledger's event names, plus `*` for all. */
export const WebhookEventType = z
  .string()
  .regex(/^(?:\*|[A-Z][A-Za-z0-9]{0,63})$/, "must be an event name (PSPMinted, Transfer...) or *")
  .meta({ description: "A contract event name as in the ledger (`PSPMinted`, `RedeemRequested`...), or `*`" });

export const WebhookParams = z.object({ webhookId: z.uuid("must be a webhook id (UUID)") });

export const WebhookView = z
  .object({
    id: z.string(),
    program: z.string(),
    chainId: z.string(),
    url: z.string(),
    eventTypes: z.array(z.string()),
    campaignId: z.string().nullable(),
    holder: Address.nullable(),
    status: z.enum(["active", "paused", "disabled"]),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: "Why deliveries stopped (status disabled, or paused by the operator)" }),
    fromBlock: z.number().int().meta({ description: "Events of blocks after this one are delivered" }),
    createdAt: z.string(),
  })
  .meta({ id: "Webhook" });

export const WebhookDeliveryView = z
  .object({
    id: z.string().meta({ description: "The `webhook-id` header: the same on every attempt and redelivery" }),
    type: z.enum(["event", "removed"]),
    event: z.string().nullable(),
    blockNumber: z.number().int(),
    logIndex: z.number().int(),
    status: z.enum(["pending", "delivered"]),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable().meta({ description: "The receiver's last HTTP status" }),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  })
  .meta({ id: "WebhookDelivery" });
