/**
 * The redemption desk's tables (docs/deployment.md#redemption-desk), appended to the service's
 * one list of migrations (src/db/migrations.ts).
 */
export const DESK_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "070_redemption_desk",
    sql: `
      -- One row per program that ever had a policy set; no row means "off".
      CREATE TABLE redemption_desks (
        program_id TEXT PRIMARY KEY,
        policy TEXT NOT NULL CHECK (policy IN ('automatic', 'manual', 'off')),
        version INTEGER NOT NULL,
        set_by TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      -- A manager's decision on one request; the executor carries it out once.
      CREATE TABLE redemption_decisions (
        program_id TEXT NOT NULL,
        request_id NUMERIC(78, 0) NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
        reason TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
        tx_hash TEXT,
        error TEXT,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (program_id, request_id)
      );
      CREATE INDEX redemption_decisions_queued ON redemption_decisions (status, program_id);
    `,
  },
  {
    id: "071_desk_bounds",
    sql: `
      -- Per-program overrides of the desk's bounds (NULL: the server's default).
      ALTER TABLE redemption_desks ADD COLUMN min_amount NUMERIC(78, 0);
      ALTER TABLE redemption_desks ADD COLUMN gas_budget_per_day NUMERIC(78, 0);
      -- A request the desk will not send before next_at: simulation refused it or a batch skipped it.
      -- fingerprint: the request's state when it failed; a new state clears the hold.
      CREATE TABLE redemption_desk_holds (
        program_id TEXT NOT NULL,
        request_id NUMERIC(78, 0) NOT NULL,
        fingerprint TEXT NOT NULL,
        failures INTEGER NOT NULL,
        next_at TIMESTAMPTZ NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (program_id, request_id)
      );
      -- Gas the executor spent on a program's desk per UTC day (receipts' gasUsed).
      CREATE TABLE redemption_desk_spend (
        program_id TEXT NOT NULL,
        day DATE NOT NULL,
        gas_used NUMERIC(78, 0) NOT NULL,
        -- Set when the next batch did not fit in what was left: the desk waits for the next day.
        exhausted BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (program_id, day)
      );
    `,
  },
];
