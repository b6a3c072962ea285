import type { Logger } from "pino";
import type { Db } from "../db/db.js";
import { enqueue, type DeliveryRow, type SubscriptionRow } from "./store.js";
import { sendSigned } from "./send.js";

export interface WebhookOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  retryMinMs: number;
  retryWindowMs: number;
  pollMs: number;
}

const MAX_WAIT_MS = 3_600_000;
// Deliveries one subscription sends per pass before others get their turn.
const BURST = 200;

/** Exponential backoff with full jitter: between half and all of min * 2^(attempts-1), at most an hour. */
export const backoffMs = (attempts: number, minMs: number) => {
  const base = Math.min(MAX_WAIT_MS, minMs * 2 ** Math.min(30, attempts - 1));
  return Math.round(base / 2 + (Math.random() * base) / 2);
};

/**
 * Delivers the ledger's events to subscriptions (docs/architecture.md#webhooks): matches new
 * ledger events into deliveries, then sends each active subscription's pending deliveries in
 * order, one at a time; a failure holds that subscription's queue (order is kept) and is
 * retried with backoff until the retry window has passed, then the subscription is disabled.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: WebhookOptions,
  ) {}

  start(): void {
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.pass().catch((e) => this.logger.error({ err: e }, "webhook pass failed"));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.opts.pollMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: match, then send what is due. Public for tests and the benchmark. */
  async pass(): Promise<void> {
    const subs = await this.db.query<SubscriptionRow>("SELECT * FROM webhook_subscriptions");
    for (const s of subs) while ((await enqueue(this.db, s)) === 1000) Object.assign(s, await this.reload(s.id));
    await Promise.all(subs.filter((s) => s.status === "active").map((s) => this.drain(s)));
  }

  private async reload(id: string) {
    return (await this.db.query<SubscriptionRow>("SELECT * FROM webhook_subscriptions WHERE id = $1", [id]))[0];
  }

  private async drain(s: SubscriptionRow): Promise<void> {
    for (let i = 0; i < BURST && !this.stopped; i++) {
      const [d] = await this.db.query<DeliveryRow>(
        `SELECT * FROM webhook_deliveries WHERE subscription_id = $1 AND status = 'pending' ORDER BY seq LIMIT 1`,
        [s.id],
      );
      if (!d || (d.next_attempt_at && new Date(d.next_attempt_at).getTime() > Date.now())) return;
      if (!(await this.attempt(s, d))) return;
    }
  }

  /** One attempt at a delivery; true when the receiver took it. */
  private async attempt(s: SubscriptionRow, d: DeliveryRow): Promise<boolean> {
    const payload = typeof d.payload === "string" ? JSON.parse(d.payload) : d.payload;
    const body = JSON.stringify({
      type: d.type === "removed" ? "ledger.event.removed" : "ledger.event",
      timestamp: new Date().toISOString(),
      data: payload,
    });
    const got = await sendSigned(s.url, s.secret, d.id, body, this.opts);
    const ok = "status" in got && got.status >= 200 && got.status < 300;
    if (ok) {
      await this.db.query(
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = $2,
           last_error = NULL, delivered_at = now(), first_attempt_at = COALESCE(first_attempt_at, now())
         WHERE id = $1`,
        [d.id, (got as { status: number }).status],
      );
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
