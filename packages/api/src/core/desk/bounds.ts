import { doubling } from "../backoff.js";
import type { Db } from "../db/db.js";

/** The desk's bounds as the server is configured (ctx.config.desk). */
export interface DeskDefaults {
  gasBudgetPerDay: number;
  minRedeemAmount: string;
  backoffMinMs: number;
  backoffMaxMs: number;
  maxGasPerTx: number;
}

/** A program's bounds for today and what it spent (GET /redemption-desk `bounds`). */
export interface DeskBudget {
  minAmount: string;
  gasBudgetPerDay: string;
  gasSpentToday: string;
  pausedUntil: string | null;
  reason: string | null;
}

/** A program's own bounds (PUT /api/v1/operator/programs/:programId/redemption-desk/bounds). */
export interface DeskOverrides {
  minAmount: string | null;
  gasBudgetPerDay: string | null;
}

const DAY_MS = 86_400_000;
/** The next UTC midnight after `now`: when a spent budget renews. */
export const nextUtcDay = (now: number) => new Date(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS);
const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);

/**
 * Holds (per-request backoff), per-day spend and per-program overrides of the desk
 * (migration 071_desk_bounds). Times come from the caller so tests need no clock.
 */
export class DeskBounds {
  constructor(
    private readonly db: Db,
    readonly defaults: DeskDefaults,
  ) {}

  /** Today's bounds and spend, with the overrides they were computed from (read once). */
  async budget(programId: string, now = Date.now()): Promise<DeskBudget & { overrides: DeskOverrides }> {
    const o = await this.overrides(programId);
    const [s] = await this.db.query<{ gas_used: string; exhausted: boolean }>(
      "SELECT gas_used, exhausted FROM redemption_desk_spend WHERE program_id = $1 AND day = $2::date",
      [programId, utcDay(now)],
    );
    const budget = BigInt(o.gasBudgetPerDay ?? this.defaults.gasBudgetPerDay);
    const spent = BigInt(s?.gas_used ?? 0);
    const paused = spent >= budget || s?.exhausted === true;
    return {
      minAmount: o.minAmount ?? this.defaults.minRedeemAmount,
      gasBudgetPerDay: budget.toString(),
      gasSpentToday: spent.toString(),
      pausedUntil: paused ? nextUtcDay(now).toISOString() : null,
      reason: paused
        ? `the desk spent its gas budget for today (${spent} of ${budget} gas, the next batch did not fit): it sends nothing for this program until the next UTC day`
        : null,
      overrides: o,
    };
  }

  /** What the operator set for the program; null fields follow the server's defaults. */
  async overrides(programId: string): Promise<DeskOverrides> {
    const [o] = await this.db.query<{ min_amount: string | null; gas_budget_per_day: string | null }>(
      "SELECT min_amount, gas_budget_per_day FROM redemption_desks WHERE program_id = $1",
      [programId],
    );
    return {
      minAmount: o?.min_amount == null ? null : String(o.min_amount),
      gasBudgetPerDay: o?.gas_budget_per_day == null ? null : String(o.gas_budget_per_day),
    };
  }

  /**
   * Sets the operator's bounds for a program. A program whose desk policy was never set gets its row at version 0
   * (policy off, as before), which the first policy change takes over (DeskStore.setPolicy).
   */
  async setOverrides(programId: string, o: DeskOverrides, setBy: string): Promise<void> {
    await this.db.query(
      `INSERT INTO redemption_desks (program_id, policy, version, set_by, min_amount, gas_budget_per_day)
       VALUES ($1, 'off', 0, $2, $3, $4)
       ON CONFLICT (program_id) DO UPDATE SET min_amount = $3, gas_budget_per_day = $4`,
      [programId, setBy, o.minAmount, o.gasBudgetPerDay],
    );
  }

  async spend(programId: string, gasUsed: bigint, now = Date.now()): Promise<void> {
    await this.db.query(
      `INSERT INTO redemption_desk_spend (program_id, day, gas_used) VALUES ($1, $2::date, $3)
       ON CONFLICT (program_id, day) DO UPDATE SET gas_used = redemption_desk_spend.gas_used + EXCLUDED.gas_used`,
      [programId, utcDay(now), gasUsed.toString()],
    );
  }

  /** Marks today's budget spent: what is left cannot carry the next batch. */
  async exhaust(programId: string, now = Date.now()): Promise<void> {
    await this.db.query(
      `INSERT INTO redemption_desk_spend (program_id, day, gas_used, exhausted) VALUES ($1, $2::date, 0, true)
       ON CONFLICT (program_id, day) DO UPDATE SET exhausted = true`,
      [programId, utcDay(now)],
    );
  }

  /** Requests held at `now`: id → its recorded hold (callers drop holds whose fingerprint moved). */
  async holds(programId: string): Promise<Map<string, { fingerprint: string; nextAt: number; reason: string }>> {
    const rows = await this.db.query<{
      request_id: string;
      fingerprint: string;
      next_at: Date | string;
      reason: string;
    }>("SELECT request_id, fingerprint, next_at, reason FROM redemption_desk_holds WHERE program_id = $1", [programId]);
    return new Map(
      rows.map((r) => [
        String(r.request_id),
        { fingerprint: r.fingerprint, nextAt: new Date(r.next_at).getTime(), reason: r.reason },
      ]),
    );
  }

  /** Records a failure: the same state doubles the wait, a new state starts again at the minimum. */
  async hold(programId: string, requestId: string, fingerprint: string, reason: string, now = Date.now()) {
    const [r] = await this.db.query<{ failures: number; fingerprint: string }>(
      "SELECT failures, fingerprint FROM redemption_desk_holds WHERE program_id = $1 AND request_id = $2",
      [programId, requestId],
    );
    const failures = r && r.fingerprint === fingerprint ? Number(r.failures) + 1 : 1;
    // 1 min, 2, 4 ... 1 h by default.
    const nextAt = new Date(now + doubling(failures, this.defaults.backoffMinMs, this.defaults.backoffMaxMs));
    await this.db.query(
      `INSERT INTO redemption_desk_holds (program_id, request_id, fingerprint, failures, next_at, reason)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (program_id, request_id)
       DO UPDATE SET fingerprint = $3, failures = $4, next_at = $5, reason = $6`,
      [programId, requestId, fingerprint, failures, nextAt.toISOString(), reason],
    );
  }

  async release(programId: string, requestIds: string[]): Promise<void> {
    if (requestIds.length === 0) return;
    await this.db.query("DELETE FROM redemption_desk_holds WHERE program_id = $1 AND request_id = ANY($2::numeric[])", [
      programId,
      requestIds,
    ]);
  }
}
