import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import { ApiError, notFound } from "../../../core/errors.js";
import { ownerOf, type Caller } from "../../../core/auth/caller.js";
import { campaignId } from "../../../core/program/campaign.js";
import { programBlock } from "../../../core/ledger/read.js";
import { requireReadable } from "../../../core/ledger/tenant.js";
import { checkWebhookUrl } from "../../../core/webhooks/target.js";
import {
  canonicalEventTypes,
  deliveryView,
  insertSubscription,
  sameSubscription,
  ownSubscription,
  subscriptionView,
  type DeliveryRow,
  type SubscriptionRow,
} from "../../../core/webhooks/store.js";

// Enough for any brand's integrations; bounds the work one caller gives the dispatcher.
const MAX_PER_OWNER = 100;
/** The advisory lock class of subscription creates (the second key is the owner's hash). */
const CREATE_LOCK = 0x77686b73; // "whks"

const ownerOrThrow = (caller: Caller) => {
  const owner = ownerOf(caller);
  if (!owner) throw new ApiError("UNAUTHORIZED", "webhooks belong to an API key or a console account");
  return owner;
};

/** The caller's subscription, or the 404 any unknown id gets (another owner's included). */
async function mine(ctx: Ctx, caller: Caller, id: string): Promise<SubscriptionRow> {
  const row = await ownSubscription(ctx.db, id, ownerOrThrow(caller));
  if (!row) throw notFound(`no webhook ${id}`);
  return row;
}

export const ledgerWebhookCreate: Handler<typeof routes.ledgerWebhookCreate> = async ({ body, caller, http }, ctx) => {
  const owner = ownerOrThrow(caller);
  const program = await ctx.programs.resolve(body.program);
  await requireReadable(ctx, program, caller, body.program);
  const url = checkWebhookUrl(body.webhookUrl, ctx.config.webhooks.allowPrivate);
  // Events after the ledger's block now; a program the ledger has not reached yet: all of them.
  const at = await programBlock(ctx.db, program.chainId, program.id);
  const key = {
    owner,
    programId: program.id,
    chainId: program.chainId,
    url: url.toString(),
    eventTypes: canonicalEventTypes(body.eventTypes),
    campaignId: body.campaignId === undefined ? null : campaignId(body.campaignId).value,
    holder: body.holder ?? null,
  };
  const made = await ctx.db.transaction(async (tx) => {
    // One create at a time per owner: two identical requests racing make one subscription, and
    // parallel ones cannot pass the limit together.
    await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [CREATE_LOCK, owner]);
    const existing = await sameSubscription(tx, key);
    if (existing) return { row: existing, created: false as const };
    const [{ n }] = (await tx.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM webhook_subscriptions WHERE owner = $1",
      [owner],
    )) as [{ n: string }];
    if (Number(n) >= MAX_PER_OWNER) {
      throw new ApiError("CONFLICT", `at most ${MAX_PER_OWNER} webhooks per API key or account: delete one first`);
    }
    const row = await insertSubscription(tx, { ...key, fromBlock: at ?? Math.max(0, (program.blockNumber ?? 0) - 1) });
    return { row, created: true as const };
  });
  if (!made.created) {
    // Already there (a retried create, a deploy script run again): that one, its secret not again.
    http.answerStatus(200);
    return { ...subscriptionView(made.row), created: false, secret: null };
  }
  // Its events so far are matched now, not at the dispatcher's next poll (docs/architecture.md#webhooks).
  ctx.pokeWebhooks();
  return { ...subscriptionView(made.row), created: true, secret: made.row.secret };
};

export const ledgerWebhookList: Handler<typeof routes.ledgerWebhookList> = async ({ caller }, ctx) => {
  const rows = await ctx.db.query<SubscriptionRow>(
    "SELECT * FROM webhook_subscriptions WHERE owner = $1 ORDER BY created_at DESC, id",
    [ownerOrThrow(caller)],
  );
  return rows.map(subscriptionView);
};

async function setStatus(ctx: Ctx, caller: Caller, id: string, status: "active" | "paused") {
  const row = await mine(ctx, caller, id);
  if (row.operator_hold) {
    throw new ApiError("CONFLICT", "the operator paused this webhook: only the operator can resume it", {
      reason: "OPERATOR_HOLD",
    });
  }
  await ctx.db.transaction(async (tx) => {
    await tx.query("UPDATE webhook_subscriptions SET status = $2, disabled_reason = NULL WHERE id = $1", [id, status]);
    // Resumed: the held delivery is retried at once and gets a new retry window.
    if (status === "active") {
      await tx.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now(), first_attempt_at = NULL
         WHERE subscription_id = $1 AND status = 'pending'`,
        [id],
      );
    }
  });
  if (status === "active") ctx.pokeWebhooks();
  return subscriptionView(await mine(ctx, caller, id));
}

export const ledgerWebhookPause: Handler<typeof routes.ledgerWebhookPause> = ({ params, caller }, ctx) =>
  setStatus(ctx, caller, params.webhookId, "paused");

export const ledgerWebhookResume: Handler<typeof routes.ledgerWebhookResume> = ({ params, caller }, ctx) =>
  setStatus(ctx, caller, params.webhookId, "active");

export const ledgerWebhookDelete: Handler<typeof routes.ledgerWebhookDelete> = async ({ params, caller }, ctx) => {
  const row = await mine(ctx, caller, params.webhookId);
  await ctx.db.query("DELETE FROM webhook_subscriptions WHERE id = $1", [row.id]);
  return { deleted: true as const };
};

export const ledgerWebhookDeliveries: Handler<typeof routes.ledgerWebhookDeliveries> = async (
  { params, query, caller },
  ctx,
) => {
  const row = await mine(ctx, caller, params.webhookId);
  const limit = query.limit ?? 100;
  // Cursor: `block.logIndex.t` of the previous page's last delivery (t: 0 event, 1 removed).
  const [b, l, t] = query.cursor ? query.cursor.split(".").map(Number) : [Number.MAX_SAFE_INTEGER, 0, 0];
  const rows = await ctx.db.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE subscription_id = $1
       AND (block_number, log_index, CASE type WHEN 'event' THEN 0 ELSE 1 END) < ($2, $3, $4)
     ORDER BY block_number DESC, log_index DESC, CASE type WHEN 'event' THEN 0 ELSE 1 END DESC LIMIT $5`,
    [row.id, b, l, t, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    deliveries: page.map(deliveryView),
    nextCursor:
      rows.length > limit && last ? `${last.block_number}.${last.log_index}.${last.type === "event" ? 0 : 1}` : null,
  };
};

export const ledgerWebhookRedeliver: Handler<typeof routes.ledgerWebhookRedeliver> = async (
  { params, caller },
  ctx,
) => {
  const row = await mine(ctx, caller, params.webhookId);
  const [d] = await ctx.db.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), first_attempt_at = NULL,
       delivered_at = NULL
     WHERE id = $1 AND subscription_id = $2 RETURNING *`,
    [params.deliveryId, row.id],
  );
  if (!d) throw notFound(`no delivery ${params.deliveryId} of webhook ${row.id}`);
  ctx.pokeWebhooks();
  return deliveryView(d);
};

export const ledgerWebhookReplay: Handler<typeof routes.ledgerWebhookReplay> = async (
  { params, body, caller },
  ctx,
) => {
  const row = await mine(ctx, caller, params.webhookId);
  if (body.toBlock < body.fromBlock) return { queued: 0 };
  const queued = await ctx.db.transaction(async (tx) => {
    // Delivered events of the range go again with their webhook-id; events never matched are
    // matched again by moving the subscription's cursor back before the range.
    const again = await tx.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), first_attempt_at = NULL,
         delivered_at = NULL
       WHERE subscription_id = $1 AND type = 'event' AND block_number BETWEEN $2 AND $3 RETURNING id`,
      [row.id, body.fromBlock, body.toBlock],
    );
    await tx.query(
      `UPDATE webhook_subscriptions SET
         enqueued_log = CASE WHEN enqueued_block >= $2 - 1 THEN 2147483647 ELSE enqueued_log END,
         enqueued_block = LEAST(enqueued_block, $2 - 1), from_block = LEAST(from_block, $2 - 1)
       WHERE id = $1`,
      [row.id, body.fromBlock],
    );
    const [{ n }] = (await tx.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ledger_events WHERE chain_id = $1 AND program_id = $2
         AND block_number BETWEEN $3 AND $4
         AND ($5 OR event = ANY($6::text[])) AND ($7::text IS NULL OR campaign_id = $7)
         AND ($8::text IS NULL OR accounts @> ARRAY[$8::text])`,
      [
        row.chain_id,
        row.program_id,
        body.fromBlock,
        body.toBlock,
        row.event_types.includes("*"),
        row.event_types,
        row.campaign_id,
        row.holder,
      ],
    )) as [{ n: string }];
    return { queued: Math.max(again.length, Number(n)) };
  });
  ctx.pokeWebhooks();
  return queued;
};
