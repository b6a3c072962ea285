import type { Db } from "../db/db.js";

/** One window's count for a key: how many hits so far, and when the window ends. */
export interface WindowCount {
  hits: number;
  resetAt: Date;
}

/**
 * Fixed-window hit counters in the database the instances share, so a budget holds across
 * every instance (docs: packages/api/README.md#scaling-out). One upsert per hit: PostgreSQL
 * serialises the row, so parallel hits on several instances never lose a count.
 */
export class SharedCounters {
  private sinceSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly sweepEvery = 1000,
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [row] = await this.db.query<{ hits: number; reset_at: Date | string }>(
      `INSERT INTO rate_limit_hits (key, hits, reset_at) VALUES ($1, 1, now() + make_interval(secs => $2))
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limit_hits.reset_at <= now() THEN 1 ELSE rate_limit_hits.hits + 1 END,
         reset_at = CASE WHEN rate_limit_hits.reset_at <= now() THEN excluded.reset_at ELSE rate_limit_hits.reset_at END
       RETURNING hits, reset_at`,
      [key, windowMs / 1000],
    );
    if (++this.sinceSweep >= this.sweepEvery) {
      this.sinceSweep = 0;
      // Expired windows are dead weight; any instance may clear them.
      await this.db.query("DELETE FROM rate_limit_hits WHERE reset_at < now() - interval '1 hour'");
    }
    return { hits: Number(row.hits), resetAt: new Date(row.reset_at) };
  }

  async unhit(key: string): Promise<void> {
    await this.db.query("UPDATE rate_limit_hits SET hits = GREATEST(hits - 1, 0) WHERE key = $1", [key]);
  }

  async reset(key: string): Promise<void> {
    await this.db.query("DELETE FROM rate_limit_hits WHERE key = $1", [key]);
  }
}
