import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError, notFound } from "../../../core/errors.js";
import { OperatorWebhooks } from "../../../core/operator/webhooks.js";

/** Every tenant's webhook subscriptions (admin scope), newest first. */
export const operatorWebhooksList: Handler<typeof routes.operatorWebhooksList> = ({ query }, ctx) =>
  new OperatorWebhooks(ctx.db).list({ owner: query.createdBy, status: query.status });

export const operatorWebhookPause: Handler<typeof routes.operatorWebhookPause> = async ({ params }, ctx) => {
  const row = await new OperatorWebhooks(ctx.db).hold(params.webhookId);
  if (!row) throw notFound(`no webhook ${params.webhookId}`);
  return row;
};

export const operatorWebhookResume: Handler<typeof routes.operatorWebhookResume> = async ({ params }, ctx) => {
  const row = await new OperatorWebhooks(ctx.db).release(params.webhookId);
  if (!row) throw notFound(`no webhook ${params.webhookId}`);
  if (row === "revoked") {
    throw new ApiError("CONFLICT", "the API key that created this webhook was revoked: it stays disabled", {
      reason: "KEY_REVOKED",
    });
  }
  ctx.pokeWebhooks();
  return row;
};

export const operatorWebhookDelete: Handler<typeof routes.operatorWebhookDelete> = async ({ params }, ctx) => {
  if (!(await new OperatorWebhooks(ctx.db).remove(params.webhookId))) throw notFound(`no webhook ${params.webhookId}`);
  return { deleted: true as const };
};
