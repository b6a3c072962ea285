import type { Redis } from "ioredis";
import type { Config } from "../config/env.js";
import type { Db } from "../db/db.js";
import { MIGRATIONS } from "../db/migrations.js";
import { rpcPool } from "../chain/rpcPool.js";

/** One check of `GET /ready`: `error` says why it failed (never a URL: it may hold credentials). */
export interface ReadyCheck {
  name: string;
  ok: boolean;
  /** `CHAIN_MISMATCH`: every endpoint of the chain answers another chain id. */
  reason?: "unreachable" | "pending" | "CHAIN_MISMATCH";
  error?: string;
}

export interface Readiness {
  ready: boolean;
  checks: ReadyCheck[];
}

/** A check that does not answer within `ms` failed: a probe must answer before its own timeout. */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function databaseChecks(db: Db, timeoutMs: number): Promise<ReadyCheck[]> {
  let applied: Set<string>;
  try {
    const rows = await within(timeoutMs, db.query<{ id: string }>("SELECT id FROM schema_migrations"));
    applied = new Set(rows.map((r) => r.id));
  } catch (e) {
    const error = `database did not answer: ${(e as Error).message}`;
    return [
      { name: "database", ok: false, reason: "unreachable", error },
      { name: "migrations", ok: false, reason: "unreachable", error: "not checked: the database did not answer" },
    ];
  }
  const pending = MIGRATIONS.map((m) => m.id).filter((id) => !applied.has(id));
  return [
    { name: "database", ok: true },
    pending.length === 0
      ? { name: "migrations", ok: true }
      : { name: "migrations", ok: false, reason: "pending", error: `not applied: ${pending.join(", ")}` },
  ];
}

/**
 * Every endpoint of the chain is asked its chain id now through the chain's RPC pool (the same
 * check that refuses an endpoint before it serves): ready when at least one answers the right id.
 */
async function chainCheck(chain: Config["chains"][number], timeoutMs: number): Promise<ReadyCheck> {
  const name = `chain:${chain.chainId}`;
  const pool = rpcPool(chain, timeoutMs);
  await pool.checkAll();
  const view = pool.view();
  if (view.some((e) => e.state === "healthy")) return { name, ok: true };
  if (pool.refused()) {
    return { name, ok: false, reason: "CHAIN_MISMATCH", error: view.map((e) => `#${e.index} ${e.reason}`).join("; ") };
  }
  const why = view.map((e) => `#${e.index} ${e.state}${e.reason ? ` (${e.reason})` : ""}`).join("; ");
  return { name, ok: false, reason: "unreachable", error: why };
}

/** Redis, when the request budgets live there: it answers PING. */
async function redisCheck(redis: Pick<Redis, "ping">, timeoutMs: number): Promise<ReadyCheck> {
  try {
    await within(timeoutMs, redis.ping());
    return { name: "redis", ok: true };
  } catch (e) {
    return { name: "redis", ok: false, reason: "unreachable", error: `redis did not answer: ${(e as Error).message}` };
  }
}

/**
 * Whether this instance can serve (docs/architecture.md): its database answers, every
 * migration is applied, every configured chain has an RPC endpoint answering its chain id, and
 * Redis answers when it holds the request budgets. `/health` only says the process is alive.
 */
export async function readiness(config: Config, db: Db, redis?: Pick<Redis, "ping">): Promise<Readiness> {
  const timeoutMs = config.rpcTimeoutMs;
  const [dbChecks, redisChecks, ...chains] = await Promise.all([
    databaseChecks(db, timeoutMs),
    redis ? redisCheck(redis, timeoutMs).then((c) => [c]) : [],
    ...config.chains.map((c) => chainCheck(c, timeoutMs)),
  ]);
  const checks = [...dbChecks, ...redisChecks, ...chains];
  return { ready: checks.every((c) => c.ok), checks };
}
