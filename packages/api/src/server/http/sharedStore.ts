import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import type { Ctx } from "../../core/context.js";
import { SharedCounters } from "../../core/limits/counters.js";

/**
 * express-rate-limit's store on the shared database's counters, so every instance spends the
 * same budget (docs: packages/api/README.md#scaling-out). `prefix` keeps two limiters apart.
 */
export class SharedStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly counters: SharedCounters,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { hits, resetAt } = await this.counters.hit(this.prefix + key, this.windowMs);
    return { totalHits: hits, resetTime: resetAt };
  }

  async decrement(key: string): Promise<void> {
    await this.counters.unhit(this.prefix + key);
  }

  async resetKey(key: string): Promise<void> {
    await this.counters.reset(this.prefix + key);
  }
}

/**
 * The store every instance shares: Redis when REDIS_URL is set, else the shared PostgreSQL;
 * undefined (each process's memory) on the embedded PGlite, which only one process can open.
 */
export function limitStore(ctx: Pick<Ctx, "db" | "redis" | "config">, prefix: string): Store | undefined {
  const redis = ctx.redis;
  if (redis) {
    return new RedisStore({
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
      prefix: `${ctx.config.redis!.keyPrefix}${prefix}`,
    });
  }
  return ctx.db.kind === "postgres" ? new SharedStore(new SharedCounters(ctx.db), prefix) : undefined;
}
