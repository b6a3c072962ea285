import { rateLimit, ipKeyGenerator, type Options, type Store } from "express-rate-limit";
import type { Response } from "express";
import type { Config } from "../../core/config/env.js";
import { ApiError } from "../../core/errors.js";
import { identityOf } from "./identity.js";

/**
 * Per API key for callers with a valid key, per console session for signed-in users,
 * otherwise per IP (runs after `identify`). Budgets are per minute, in `store` when the instances
 * share one (docs: packages/api/README.md#scaling-out), else in this process's memory.
 */
export function rateLimiter(config: Config, store?: Store) {
  const bucket = (res: Response) => {
    const { key, session } = identityOf(res);
    return key.kind === "key" ? `key:${key.keyId}` : session ? `session:${session.email}` : undefined;
  };
  return rateLimit({
    windowMs: 60_000,
    ...(store && { store }),
    // The shared counters live in the database: when it is down the request goes on (and fails or not on its
    // own merits, /ready saying why) rather than every route answering 500 from inside the limiter.
    passOnStoreError: true,
    limit: (_req, res) => (bucket(res) ? config.rateLimit.perKey : config.rateLimit.perIp),
    keyGenerator: (req, res) => bucket(res) ?? `ip:${ipKeyGenerator(req.ip ?? "unknown")}`,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", "too many requests: slow down and retry after a minute")),
  });
}

/**
 * Per IP, the credential lookups that found nothing (invented API keys, dead session cookies)
 * in the current minute. Once an IP has spent its per-IP budget on them, its credentials are
 * no longer looked up at all: a flood of made-up keys costs no database work, while valid keys
 * (which never count here) keep their own budgets.
 *
 * With a `store` the instances share (packages/api/README.md#scaling-out), every failed lookup is
 * counted there too, and an instance blocks the IP as soon as the shared count says the budget is
 * spent: across N instances an IP gets at most its budget plus one lookup per other instance (the
 * one that tells it). `blocked` stays a local read, so a request with a valid key costs no extra
 * round trip; a store that fails leaves the local count in charge.
 */
export class FailedLookups {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  private readonly ready: Promise<void>;

  constructor(
    private readonly limit: number,
    private readonly store?: Store,
    private readonly windowMs = 60_000,
  ) {
    // Both shared stores (SharedStore, rate-limit-redis) read only the window from their options.
    // A failed init surfaces in hit(), where the local count stays in charge.
    this.ready = Promise.resolve(store?.init?.({ windowMs } as Options));
    this.ready.catch(() => undefined);
  }

  blocked(ip: string): boolean {
    const entry = this.hits.get(ip);
    return entry !== undefined && entry.resetAt > Date.now() && entry.count >= this.limit;
  }

  async hit(ip: string): Promise<void> {
    const now = Date.now();
    if (this.hits.size > 100_000) {
      for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    }
    let entry = this.hits.get(ip);
    if (!entry || entry.resetAt <= now) this.hits.set(ip, (entry = { count: 1, resetAt: now + this.windowMs }));
    else entry.count++;
    if (!this.store) return;
    try {
      await this.ready;
      const shared = await this.store.increment(ip);
      if (shared.totalHits > entry.count) {
        entry.count = shared.totalHits;
        if (shared.resetTime) entry.resetAt = shared.resetTime.getTime();
      }
    } catch {
      // The shared store is down: this instance's own count still cuts the IP off.
    }
  }
}
