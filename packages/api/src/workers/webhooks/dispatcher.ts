import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "../../core/db/db.js";
import { doubling, jittered } from "../../core/backoff.js";
import { PassLoop, idleBackoffFor, warnUndrained } from "../jobs/passLoop.js";
import { enqueue, sentData, type DeliveryRow, type SubscriptionRow } from "../../core/webhooks/store.js";
import { sendSigned } from "./send.js";
import { FairSlots } from "./slots.js";
import { webhookAttempted } from "../../core/metrics/index.js";
import { inSpan } from "../../core/tracing/spans.js";
import type { LedgerEvent } from "../../core/ledger/events.js";

export interface WebhookOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  retryMinMs: number;
  retryWindowMs: number;
  pollMs: number;
  /** How long a subscription stays this instance's without renewal (renewed before each attempt). */
  leaseMs: number;
  /** Attempts in flight at once in this dispatcher, every subscription together. */
  concurrency: number;
  /** Attempts in flight at once for one owner (API key or console account). */
  ownerConcurrency: number;
}

const MAX_WAIT_MS = 3_600_000;
// Deliveries one subscription sends per pass before others get their turn.
const BURST = 200;
// A running queue re-reads its subscription at least this often: a pause, a deletion or a revoked
// key stops it within this time, not at the end of its burst.
const RECHECK_MS = 1000;

/** Exponential backoff with full jitter: between half and all of min * 2^(attempts-1), at most an hour. */
export const backoffMs = (attempts: number, minMs: number) =>
  Math.round(jittered(doubling(attempts, minMs, MAX_WAIT_MS), 0.5, 1));

/**
 * Marks taken deliveries delivered in the background, as many per statement as have piled up,
 * while the next one is sent: one database round trip less per delivery. A mark lost to a crash
 * only means that delivery is sent again under its webhook-id (at least once).
 */
class Marks {
  private readonly taken: { id: string; status: number }[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  add(id: string, status: number): void {
    this.taken.push({ id, status });
    this.chain = this.chain.then(() => this.flush());
  }

  done(): Promise<void> {
    return this.chain;
  }

  private async flush(): Promise<void> {
    const batch = this.taken.splice(0);
    if (batch.length === 0) return;
    await this.db
      .query(
        `UPDATE webhook_deliveries AS d SET status = 'delivered', attempts = d.attempts + 1, last_status = u.s,
           last_error = NULL, delivered_at = now(), first_attempt_at = COALESCE(d.first_attempt_at, now())
         FROM unnest($1::text[], $2::int[]) AS u(id, s) WHERE d.id = u.id`,
        [batch.map((b) => b.id), batch.map((b) => b.status)],
      )
      .catch((e) => this.logger.error({ err: e }, "webhook deliveries not marked; they will be sent again"));
  }
}

/**
 * Delivers the ledger's events to subscriptions (docs/architecture.md#webhooks): matches new
 * ledger events into deliveries, then sends each active subscription's pending deliveries in
 * order, one at a time; a failure holds that subscription's queue (order is kept) and is
 * retried with backoff until the retry window has passed, then the subscription is disabled.
 * Each subscription's queue runs on its own, beside the passes: a pass never waits for a
 * receiver, attempts share `concurrency` slots fairly across owners (FairSlots), and an attempt
 * ends within `timeoutMs`, so a slow or silent receiver delays only its own queue.
 * Instances on one PostgreSQL share subscriptions by lease: each pass claims the subscriptions
 * no live instance holds (SKIP LOCKED), and every attempt first renews its subscription's lease
 * and stops if another instance took it, so no delivery is sent by two instances at once.
 */
export class WebhookDispatcher {
  readonly id = `webhooks-${randomUUID()}`;
  private readonly loop: PassLoop<number>;
  // Subscription id -> its queue running now (at most one per subscription: order is kept).
  private readonly draining = new Map<string, Promise<void>>();
  private readonly slots: FairSlots;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: WebhookOptions,
  ) {
    this.slots = new FairSlots(opts.concurrency, opts.ownerConcurrency);
    // A pass schedules the queues and returns without waiting for them; the next after pollMs
    // (doubling while there is nothing to send, up to IDLE_MAX_MS: passLoop.ts), or at once when
    // this process queued deliveries meanwhile: the indexer committed events (onLedgerEvent), or
    // a request created, resumed, redelivered or replayed a subscription (`ctx.pokeWebhooks`).
    const backoff = idleBackoffFor(opts.pollMs, opts.leaseMs);
    this.loop = new PassLoop({
      job: "webhooks",
      pass: async () => (await this.schedule()).length,
      waitMs: (started) => {
        if (!started) return backoff.idle();
        backoff.busy();
        return opts.pollMs;
      },
      onError: (e) => this.logger.error({ err: e }, "webhook pass failed"),
      onUndrained: warnUndrained(this.logger, "webhooks"),
    });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  start(): void {
    this.loop.start();
  }

  /** A pass now, not at the next poll. */
  wake(): void {
    this.loop.poke();
  }

  /**
   * The in-process indexer's subscriber (src/service.ts wires it, after the ledger's commit): a
   * range that stored events, or a reorg that queued `removed` deliveries, is sent now rather
   * than at the next poll. Other events change nothing here.
   */
  readonly onLedgerEvent = (event: LedgerEvent): void => {
    if ((event.type === "block" && event.events > 0) || event.type === "reorg") this.wake();
  };

  /**
   * `drainMs` bounds the wait for the pass in flight (matching and scheduling); the queues it
   * started are still waited for: each stops before its next delivery, and an attempt in flight
   * ends within WEBHOOK_TIMEOUT_MS, so no subscription is given back while one is sent.
   */
  async stop(drainMs?: number): Promise<void> {
    await this.loop.stop(drainMs);
    await Promise.all(this.draining.values());
    // Given back at once: another instance need not wait for the leases to expire.
    await this.db
      .query("UPDATE webhook_subscriptions SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1", [
        this.id,
      ])
      .catch(() => undefined);
  }

  /** One pass, and the queues it started until they stop. Public for tests and the benchmark. */
  async pass(): Promise<void> {
    await Promise.all(await this.schedule());
  }

  /**
   * Matches new events, then starts the queue of every active subscription that has none
   * running; returns the queues started without waiting for them (the loop goes on).
   */
  private async schedule(): Promise<Promise<void>[]> {
    // Before the claim: the leases it takes are timed from here, not from when a queue starts.
    const claimedAt = Date.now();
    const subs = await this.claim();
    for (const s of subs) while ((await enqueue(this.db, s)) === 1000) Object.assign(s, await this.reload(s.id));
    const started: Promise<void>[] = [];
    for (const s of subs) {
      if (s.status !== "active" || this.draining.has(s.id) || this.stopped) continue;
      const queue = this.drain(s, claimedAt)
        .then((more) => {
          if (more) this.wake();
        })
        .catch((e) => this.logger.error({ err: e, subscription: s.id }, "webhook queue failed"))
        .finally(() => this.draining.delete(s.id));
      this.draining.set(s.id, queue);
      started.push(queue);
    }
    return started;
  }

  /**
   * Takes or renews the lease of every subscription no other live instance holds; rows another
   * instance is claiming at this moment are skipped, not waited for.
   */
  private claim(): Promise<SubscriptionRow[]> {
    return this.db.query<SubscriptionRow>(
      `UPDATE webhook_subscriptions
       SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id IN (SELECT id FROM webhook_subscriptions
         WHERE lease_owner IS NULL OR lease_owner = $1 OR lease_expires_at < now()
         ORDER BY id FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [this.id, this.opts.leaseMs],
    );
  }

  /**
   * Renews the subscription's lease; false when another instance holds it now, or it was paused,
   * disabled (its key revoked) or deleted meanwhile.
   */
  private async renew(id: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE webhook_subscriptions SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND lease_owner = $2 AND status = 'active' RETURNING id`,
      [id, this.id, this.opts.leaseMs],
    );
    return rows.length === 1;
  }

  private async reload(id: string) {
    return (await this.db.query<SubscriptionRow>("SELECT * FROM webhook_subscriptions WHERE id = $1", [id]))[0];
  }

  /**
   * Sends the subscription's due deliveries in order; true when a whole burst went (more may be
   * due). `claimedAt`: when the pass that started this queue took the lease (just before its claim).
   */
  private async drain(s: SubscriptionRow, claimedAt: number): Promise<boolean> {
    // The claim renewed the lease; renewed again before an attempt once a third of it (or
    // RECHECK_MS) has gone since the claim, so an attempt (at most WEBHOOK_TIMEOUT_MS, under half
    // the lease) ends inside the lease, however long the pass took to match events meanwhile.
    let renewed = claimedAt;
    const due = await this.db.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE subscription_id = $1 AND status = 'pending' ORDER BY seq LIMIT $2`,
      [s.id, BURST],
    );
    const marks = new Marks(this.db, this.logger);
    try {
      for (const d of due) {
        if (this.stopped || (d.next_attempt_at && new Date(d.next_attempt_at).getTime() > Date.now())) return false;
        // A slot first: waiting for one may take up to an attempt's timeout.
        const release = await this.slots.acquire(s.owner);
        try {
          if (this.stopped) return false;
          if (Date.now() - renewed > Math.min(this.opts.leaseMs / 3, RECHECK_MS)) {
            if (!(await this.renew(s.id))) {
              this.logger.info(
                { subscription: s.id },
                "webhook subscription stopped or taken over by another instance",
              );
              return false;
            }
            renewed = Date.now();
          }
          if (!(await this.attempt(s, d, marks))) return false;
        } finally {
          release();
        }
      }
      return due.length === BURST;
    } finally {
      await marks.done();
    }
  }

  /** One attempt at a delivery; true when the receiver took it. */
  private async attempt(s: SubscriptionRow, d: DeliveryRow, marks: Marks): Promise<boolean> {
    const payload = typeof d.payload === "string" ? JSON.parse(d.payload) : d.payload;
    const body = JSON.stringify({
      type: d.type === "removed" ? "ledger.event.removed" : "ledger.event",
      timestamp: new Date().toISOString(),
      data: sentData(payload),
    });
    const got = await inSpan(
      "webhooks.delivery",
      { "points.subscription": s.id, "points.delivery": d.id, "points.chain_id": s.chain_id },
      async (span) => {
        const answer = await sendSigned(s.url, s.secret, d.id, body, this.opts);
        if ("status" in answer) span.setAttribute("http.response.status_code", answer.status);
        else span.setAttribute("error.type", answer.error.slice(0, 100));
        return answer;
      },
    );
    const ok = "status" in got && got.status >= 200 && got.status < 300;
    webhookAttempted(ok);
    if (ok) {
      marks.add(d.id, (got as { status: number }).status);
      return true;
    }
    const why = "status" in got ? `HTTP ${got.status}` : got.error;
    const first = d.first_attempt_at ? new Date(d.first_attempt_at).getTime() : Date.now();
    const attempts = d.attempts + 1;
    if (Date.now() - first >= this.opts.retryWindowMs) {
      // Retried for the whole window: stop, say why; resume re-arms the queue.
      await this.db.transaction(async (tx) => {
        await tx.query(
          `UPDATE webhook_deliveries SET attempts = $2, last_status = $3, last_error = $4, next_attempt_at = now()
           WHERE id = $1`,
          [d.id, attempts, "status" in got ? got.status : null, why.slice(0, 500)],
        );
        await tx.query(
          `UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = $2 WHERE id = $1 AND status = 'active'`,
          [s.id, `delivery ${d.id} failed for ${Math.round(this.opts.retryWindowMs / 1000)} s: ${why}`.slice(0, 500)],
        );
      });
      this.logger.warn({ subscription: s.id, delivery: d.id, why }, "webhook subscription disabled");
      return false;
    }
    await this.db.query(
      `UPDATE webhook_deliveries SET attempts = $2, last_status = $3, last_error = $4,
         first_attempt_at = COALESCE(first_attempt_at, now()),
         next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
       WHERE id = $1`,
      [
        d.id,
        attempts,
        "status" in got ? got.status : null,
        why.slice(0, 500),
        backoffMs(attempts, this.opts.retryMinMs),
      ],
    );
    // Logged without the URL's query or any header: no secret reaches the logs.
    this.logger.info({ subscription: s.id, delivery: d.id, attempts, why }, "webhook delivery failed; will retry");
    return false;
  }
}
