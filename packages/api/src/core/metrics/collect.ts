import { Gauge, Registry } from "prom-client";
import type { Db } from "../db/db.js";

/** What the per-instance gauges read: the database and each chain's head. */
export interface CollectSources {
  db: Db;
  /** Chain ids this instance serves, with how to read each one's newest block. */
  chains: { chainId: number; head: () => Promise<number> }[];
}

const TASK_STATES = ["awaiting_approval", "queued", "running", "succeeded", "failed"];

/**
 * The gauges read at scrape time (README.md#metrics-and-alerts): each `collect` runs one small
 * query when Prometheus asks, so no worker or request does any work for metrics.
 */
export function serviceRegistry({ db, chains }: CollectSources): Registry {
  const registry = new Registry();
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (g: Gauge<L>) => Promise<void>,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });

  // First: a scrape runs every gauge's collect at once, so read later the pool would count the
  // scrape's own queries as waiting.
  gauge("points_db_pool_connections", "Database pool connections by state (PostgreSQL only)", ["state"], async (g) => {
    const p = db.poolStats?.();
    if (!p) return;
    g.set({ state: "total" }, p.total);
    g.set({ state: "idle" }, p.idle);
    g.set({ state: "waiting" }, p.waiting);
  });

  gauge("points_onboarding_tasks", "Onboarding tasks by state", ["state"], async (g) => {
    for (const s of TASK_STATES) g.set({ state: s }, 0);
    const rows = await db.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM onboarding_tasks GROUP BY status",
    );
    for (const r of rows) g.set({ state: r.status }, Number(r.n));
  });

  const cursors = () =>
    db.query<{ chain_id: string; block_number: string }>("SELECT chain_id, block_number FROM ledger_cursors");
  gauge("points_ledger_indexed_block", "The newest block the ledger has indexed, per chain", ["chain"], async (g) => {
    for (const c of await cursors()) g.set({ chain: c.chain_id }, Number(c.block_number));
  });
  gauge(
    "points_ledger_head_lag_blocks",
    "Blocks between the chain's head and the newest block the ledger has indexed",
    ["chain"],
    async (g) => {
      const indexed = new Map((await cursors()).map((c) => [c.chain_id, Number(c.block_number)]));
      await Promise.all(
        chains.map(async (c) => {
          const at = indexed.get(String(c.chainId));
          // A chain that does not answer leaves its series out rather than reporting a lag of 0.
          const head = await c.head().catch(() => undefined);
          if (at !== undefined && head !== undefined) g.set({ chain: String(c.chainId) }, Math.max(0, head - at));
        }),
      );
    },
  );

  const pending = () =>
    db.query<{ n: string; retrying: string; oldest: number | null }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE attempts > 0) AS retrying,
         EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest
       FROM webhook_deliveries WHERE status = 'pending'`,
    );
  gauge("points_webhook_pending_deliveries", "Webhook deliveries not delivered yet (the backlog)", [], async (g) => {
    g.set(Number((await pending())[0].n));
  });
  gauge("points_webhook_retrying_deliveries", "Pending webhook deliveries that failed at least once", [], async (g) => {
    g.set(Number((await pending())[0].retrying));
  });
  gauge(
    "points_webhook_lag_seconds",
    "Age of the oldest pending webhook delivery (0: none pending)",
    [],
    async (g) => void g.set(Number((await pending())[0].oldest ?? 0)),
  );
  gauge(
    "points_webhook_dead_endpoints",
    "Webhook subscriptions disabled after failing for the whole retry window",
    [],
    async (g) => {
      const [r] = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM webhook_subscriptions WHERE status = 'disabled'",
      );
      g.set(Number(r.n));
    },
  );

  const spend = () =>
    db.query<{ program_id: string; gas_used: string; exhausted: boolean }>(
      `SELECT program_id, gas_used, exhausted FROM redemption_desk_spend WHERE day = (now() AT TIME ZONE 'UTC')::date`,
    );
  gauge(
    "points_desk_gas_used_today",
    "Gas the redemption desk spent today (UTC), per program",
    ["program"],
    async (g) => {
      for (const r of await spend()) g.set({ program: r.program_id }, Number(r.gas_used));
    },
  );
  gauge(
    "points_desk_budget_exhausted",
    "1 when a program's desk spent today's gas budget (it sends nothing until the next UTC day)",
    ["program"],
    async (g) => {
      for (const r of await spend()) g.set({ program: r.program_id }, r.exhausted ? 1 : 0);
    },
  );
  return registry;
}
