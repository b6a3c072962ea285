import type { Queryable } from "./db.js";

/** Tables of named leases: `(chain_id PRIMARY KEY, owner, expires_at)`. */
export type LeaseTable = "executor_leases" | "ledger_leases";

/**
 * Takes the lease on `key` for `owner`, or renews it: true when `owner` holds it now. A lease
 * held by another owner is taken only once it has expired.
 */
export async function takeLease(
  q: Queryable,
  table: LeaseTable,
  key: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO ${table} (chain_id, owner, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (chain_id) DO UPDATE SET owner = $2, expires_at = EXCLUDED.expires_at
       WHERE ${table}.owner = $2 OR ${table}.expires_at < now()
     RETURNING owner`,
    [key, owner, leaseMs],
  );
  return rows.length === 1;
}

/** Gives the lease back at once (another owner need not wait for it to expire). */
export async function releaseLease(q: Queryable, table: LeaseTable, key: string, owner: string): Promise<void> {
  await q.query(`DELETE FROM ${table} WHERE chain_id = $1 AND owner = $2`, [key, owner]);
}
