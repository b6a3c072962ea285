import type { Core } from "./core.js";
import type { Body, Query } from "../types.js";

/** Operator routes (an API key with the admin scope) over every tenant's webhooks and desk bounds. */
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
    desk: {
      /**
       * Sets one program's redemption desk bounds: its smallest automatic request (SP wei) and its gas per UTC
       * day (0 stops the automatic desk for it); null restores the server's default. Answers the bounds in force.
       */
      setBounds: (programId: string, bounds: Body<"operatorDeskBoundsSet">) =>
        core.request("operatorDeskBoundsSet", { params: { programId }, body: bounds }),
    },
  };
}
