import type { Core } from "./core.js";
import type { Query } from "../types.js";

/** Operator routes (an API key with the admin scope) over every tenant's webhooks. */
export function operatorNamespace(core: Core) {
  return {
    webhooks: {
      /** Every tenant's subscriptions, newest first; `createdBy` (key id or session:<email>) and `status` filter. */
      list: (query: Query<"operatorWebhooksList"> = {}) => core.request("operatorWebhooksList", { query }),
      /** Holds a subscription: nothing is sent, and its owner cannot resume it. */
      pause: (webhookId: string) => core.request("operatorWebhookPause", { params: { webhookId } }),
      /** Lifts the hold (a revoked key's subscription stays disabled: 409 CONFLICT). */
      resume: (webhookId: string) => core.request("operatorWebhookResume", { params: { webhookId } }),
      /** Deletes any subscription and its delivery log. */
      remove: (webhookId: string) => core.request("operatorWebhookDelete", { params: { webhookId } }),
    },
  };
}
