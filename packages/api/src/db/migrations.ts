import type { Db } from "./db.js";

/**
 * One ordered list of migrations for both backends. Never edit an applied migration: append.
 * Kept in code (not .sql files) so the built package needs no asset copying.
 */
export const MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "001_programs_and_keys",
    sql: `
      CREATE TABLE programs (
        id TEXT PRIMARY KEY,
        chain_id TEXT NOT NULL,
        brand TEXT NOT NULL UNIQUE,
        factory TEXT NOT NULL,
        points TEXT NOT NULL,
        collateral_vault TEXT NOT NULL,
        psp_vault TEXT NOT NULL,
        oracle TEXT,
        program_factory TEXT,
        deploy_tx TEXT,
        block_number BIGINT,
        metadata JSONB NOT NULL DEFAULT '{}',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (chain_id, factory)
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        revoked_at TIMESTAMPTZ
      );
    `,
  },
];

// Any constant works; it only has to be the same for every instance of the service.
const MIGRATION_LOCK = 724_113_001;

/**
 * Applies pending migrations in one transaction (all or nothing) and returns their ids.
 * Instances sharing one PostgreSQL serialise on a transaction-scoped advisory lock, so each
 * migration runs exactly once however many start together. `migrations` is for tests.
 */
export async function migrate(
  db: Db,
  migrations: readonly { id: string; sql: string }[] = MIGRATIONS,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const done = new Set((await tx.query<{ id: string }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (id) VALUES ($1)", [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
