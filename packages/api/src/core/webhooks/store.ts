import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getAddress, isAddress } from "ethers";
import type { Queryable } from "../db/db.js";
import type { LedgerListener } from "../ledger/events.js";
import { blockTimeIso, ledgerEventView, type HistoryRow } from "../ledger/read.js";

/** A subscription as its owner sees it (never the secret, but at creation). */
export interface SubscriptionRow {
  id: string;
  owner: string;
  program_id: string;
  chain_id: string;
  url: string;
  event_types: string[];
  campaign_id: string | null;
  holder: string | null;
  secret: string;
  status: "active" | "paused" | "disabled";
  disabled_reason: string | null;
  operator_hold: boolean;
  from_block: string | number;
  enqueued_block: string | number;
  enqueued_log: number;
  created_at: Date | string;
}

export interface DeliveryRow {
  id: string;
  seq: string | number;
  subscription_id: string;
  type: "event" | "removed";
  block_number: string | number;
  log_index: number;
  event: string | null;
  payload: Record<string, unknown> | string;
  status: "pending" | "delivered";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | string | null;
  first_attempt_at: Date | string | null;
  created_at: Date | string;
  delivered_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const subscriptionView = (r: SubscriptionRow) => ({
  id: r.id,
  program: r.program_id,
  chainId: r.chain_id,
  url: r.url,
  eventTypes: r.event_types,
  campaignId: r.campaign_id,
  holder: r.holder && getAddress(r.holder),
  status: r.status,
  disabledReason: r.disabled_reason,
  fromBlock: Number(r.from_block),
  createdAt: iso(r.created_at)!,
});

export const deliveryView = (r: DeliveryRow) => ({
  id: r.id,
  type: r.type,
  event: r.event,
  blockNumber: Number(r.block_number),
  logIndex: r.log_index,
  status: r.status,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  nextAttemptAt: r.status === "pending" ? iso(r.next_attempt_at) : null,
  createdAt: iso(r.created_at)!,
  deliveredAt: iso(r.delivered_at),
});

/**
 * A delivery's id (its `webhook-id`), derived from what it announces: the subscription, and the
 * event's chain, block (number and hash) and log index; a removal's from the id of the delivery it takes
 * back. The same event delivered again (a replay, the ledger indexing it again after a rollback)
 * keeps its id; an event in another block (a reorg) has another. UUID-shaped (version 8).
 */
export function deliveryId(
  parts:
    | { subscription: string; chainId: string; blockNumber: string | number; blockHash: string; logIndex: number }
    | { removes: string },
): string {
  const text =
    "removes" in parts
      ? `removed:${parts.removes}`
      : `event:${parts.subscription}:${parts.chainId}:${parts.blockNumber}:${parts.blockHash.toLowerCase()}:${parts.logIndex}`;
  const h = createHash("sha256").update(text).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * `data` of a delivery: the event with the ledger routes' field types (block time as ISO text,
 * address checksummed; `@points/schema` WebhookEventData), and its program and chain.
 */
function eventData(s: SubscriptionRow, r: HistoryRow) {
  const { time, ...event } = ledgerEventView(r);
  return {
    program: s.program_id,
    chainId: s.chain_id,
    blockNumber: event.blockNumber,
    logIndex: event.logIndex,
    txHash: event.txHash,
    blockTime: time,
    contract: event.contract,
    address: event.address,
    event: event.event,
    campaignId: event.campaignId,
    args: event.args,
  };
}

/**
 * A stored `data` as it is sent. Deliveries queued by an earlier version kept the block time in
 * seconds and the address in lowercase: sent like the others, with the routes' types.
 */
export function sentData(payload: Record<string, unknown>): Record<string, unknown> {
  const { blockTime, address } = payload;
  return {
    ...payload,
    ...(typeof blockTime === "number" || (typeof blockTime === "string" && /^[0-9]+$/.test(blockTime))
      ? { blockTime: blockTimeIso(blockTime) }
      : {}),
    ...(typeof address === "string" && isAddress(address) ? { address: getAddress(address) } : {}),
  };
}

/** A new Standard Webhooks secret: `whsec_` + 32 random bytes, base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export async function insertSubscription(
  db: Queryable,
  s: {
    owner: string;
    programId: string;
    chainId: string;
    url: string;
    eventTypes: string[];
    campaignId: string | null;
    holder: string | null;
    fromBlock: number;
  },
): Promise<SubscriptionRow> {
  const [row] = await db.query<SubscriptionRow>(
    `INSERT INTO webhook_subscriptions (id, owner, program_id, chain_id, url, event_types, campaign_id, holder, secret,
       status, from_block, enqueued_block)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10, $10) RETURNING *`,
    [
      randomUUID(),
      s.owner,
      s.programId,
      s.chainId,
      s.url,
      s.eventTypes,
      s.campaignId,
      s.holder?.toLowerCase() ?? null,
      newSecret(),
      s.fromBlock,
    ],
  );
  return row!;
}

/**
 * A subscription's event types as compared and stored: each once, sorted; with `*` among them,
 * just `*` (it matches every event anyway). Listing them in another order is the same filter.
 */
export function canonicalEventTypes(eventTypes: readonly string[] | undefined): string[] {
  if (!eventTypes || eventTypes.includes("*")) return ["*"];
  return [...new Set(eventTypes)].sort();
}

/** What makes two subscriptions the same: owner, program, URL and filter. */
export type SubscriptionKey = Pick<
  Parameters<typeof insertSubscription>[1],
  "owner" | "programId" | "chainId" | "url" | "eventTypes" | "campaignId" | "holder"
>;

/**
 * The owner's subscription with this URL and filter, if any. Event types compare canonically,
 * so one stored in another order (before they were kept sorted) is found too.
 */
export async function sameSubscription(db: Queryable, k: SubscriptionKey): Promise<SubscriptionRow | undefined> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT * FROM webhook_subscriptions WHERE owner = $1 AND chain_id = $2 AND program_id = $3 AND url = $4
       AND campaign_id IS NOT DISTINCT FROM $5 AND holder IS NOT DISTINCT FROM $6
     ORDER BY created_at, id`,
    [k.owner, k.chainId, k.programId, k.url, k.campaignId, k.holder?.toLowerCase() ?? null],
  );
  const wanted = canonicalEventTypes(k.eventTypes).join(",");
  return rows.find((r) => canonicalEventTypes(r.event_types).join(",") === wanted);
}

/** The caller's subscription; undefined for another owner's (which the routes answer 404). */
export async function ownSubscription(db: Queryable, id: string, owner: string) {
  const [row] = await db.query<SubscriptionRow>("SELECT * FROM webhook_subscriptions WHERE id = $1 AND owner = $2", [
    id,
    owner,
  ]);
  return row;
}

/**
 * Matches new ledger events of a subscription's program into pending deliveries, in chain
 * order, up to the program's ledger block (the ledger holds confirmed blocks only).
 */
export async function enqueue(db: Queryable, s: SubscriptionRow, limit = 1000): Promise<number> {
  const all = s.event_types.includes("*");
  // The ledger block first: its events are all committed with it, and a block the indexer
  // commits while this runs is matched by the next call, not skipped.
  const [program] = await db.query<{ synced_to: string }>(
    "SELECT synced_to FROM ledger_programs WHERE chain_id = $1 AND program_id = $2",
    [s.chain_id, s.program_id],
  );
  if (!program) return 0;
  const upTo = Number(program.synced_to);
  const rows = await db.query<HistoryRow & { block_hash: string }>(
    `SELECT e.block_number, e.log_index, e.block_hash, e.tx_hash, e.block_time, e.contract, e.address, e.event,
       e.campaign_id, e.args
     FROM ledger_events e
     WHERE e.chain_id = $1 AND e.program_id = $2 AND e.block_number <= $11
       AND (e.block_number, e.log_index) > ($3, $4) AND e.block_number > $5
       AND ($6 OR e.event = ANY($7::text[]))
       AND ($8::text IS NULL OR e.campaign_id = $8)
       AND ($9::text IS NULL OR e.accounts @> ARRAY[$9::text])
     ORDER BY e.block_number, e.log_index LIMIT $10`,
    [
      s.chain_id,
      s.program_id,
      s.enqueued_block,
      s.enqueued_log,
      s.from_block,
      all,
      s.event_types,
      s.campaign_id,
      s.holder,
      limit,
      upTo,
    ],
  );
  if (rows.length > 0) {
    // One statement, rows in chain order (their seq follows it).
    await db.query(
      `INSERT INTO webhook_deliveries (id, subscription_id, type, block_number, log_index, event, payload, status,
         next_attempt_at)
       SELECT u.id, $1, 'event', u.b, u.l, u.e, u.p::jsonb, 'pending', now()
       FROM unnest($2::text[], $3::bigint[], $4::int[], $5::text[], $6::text[]) WITH ORDINALITY AS u(id, b, l, e, p, o)
       ORDER BY u.o ON CONFLICT DO NOTHING`,
      [
        s.id,
        rows.map((r) =>
          deliveryId({
            subscription: s.id,
            chainId: s.chain_id,
            blockNumber: r.block_number,
            blockHash: r.block_hash,
            logIndex: r.log_index,
          }),
        ),
        rows.map((r) => r.block_number),
        rows.map((r) => r.log_index),
        rows.map((r) => r.event),
        rows.map((r) => JSON.stringify(eventData(s, r))),
      ],
    );
  }
  // Full page: continue after its last event; else every event up to the ledger block is matched.
  const last = rows[rows.length - 1];
  const to =
    rows.length === limit && last
      ? [Number(last.block_number), last.log_index]
      : [Math.max(upTo, Number(s.enqueued_block)), 2_147_483_647];
  if (to[0] !== Number(s.enqueued_block) || to[1] !== s.enqueued_log) {
    await db.query(
      "UPDATE webhook_subscriptions SET enqueued_block = $2, enqueued_log = $3 WHERE id = $1 AND enqueued_block = $4",
      [s.id, to[0], to[1], s.enqueued_block],
    );
  }
  return rows.length;
}

/**
 * A reorg rolled the ledger back to `ancestor` (in the rollback's transaction): every event
 * above it that a receiver may have seen (one attempt or more) gets a `removed` delivery;
 * unsent ones are dropped; subscriptions match again from the ancestor.
 */
export async function onRollback(tx: Queryable, chainId: string, ancestor: number): Promise<void> {
  const gone = await tx.query<DeliveryRow>(
    `SELECT d.* FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
     WHERE s.chain_id = $1 AND d.type = 'event' AND d.block_number > $2 ORDER BY d.seq`,
    [chainId, ancestor],
  );
  for (const d of gone) {
    if (d.attempts > 0) {
      const payload = typeof d.payload === "string" ? JSON.parse(d.payload) : d.payload;
      await tx.query(
        `INSERT INTO webhook_deliveries (id, subscription_id, type, block_number, log_index, event, payload, status,
           next_attempt_at)
         VALUES ($1, $2, 'removed', $3, $4, $5, $6, 'pending', now())
         ON CONFLICT (id) DO UPDATE SET status = 'pending', attempts = 0, last_status = NULL, last_error = NULL,
           next_attempt_at = now(), first_attempt_at = NULL, delivered_at = NULL, payload = EXCLUDED.payload,
           seq = nextval(pg_get_serial_sequence('webhook_deliveries', 'seq'))`,
        [
          deliveryId({ removes: d.id }),
          d.subscription_id,
          d.block_number,
          d.log_index,
          d.event,
          JSON.stringify({ ...payload, removedDelivery: d.id }),
        ],
      );
    }
    await tx.query("DELETE FROM webhook_deliveries WHERE id = $1", [d.id]);
  }
  await tx.query(
    `UPDATE webhook_subscriptions SET enqueued_block = $2, enqueued_log = 2147483647
     WHERE chain_id = $1 AND enqueued_block > $2`,
    [chainId, ancestor],
  );
}

/**
 * The webhooks' listener of a reorg inside the ledger's rollback (the ledger does not know
 * webhooks). New blocks wake the dispatcher after the commit instead.
 */
export const webhooksOnLedgerEvent: LedgerListener = (tx, event) =>
  onRollback(tx, event.chainId, event.ancestor.number);
