import type { Queryable } from "../db/db.js";
import type { EnginePause } from "./engine.js";

/** Records whether one executor key of the chain is paused (the worker writes, the task view reads). */
export async function savePause(db: Queryable, chainId: string, address: string, p: EnginePause | null): Promise<void> {
  await db.query(
    `INSERT INTO executor_status (chain_id, address, paused_code, paused_message, updated_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (chain_id, address) DO UPDATE SET paused_code = $3, paused_message = $4, updated_at = now()`,
    [chainId, address, p?.code ?? null, p?.message ?? null],
  );
}

/** The pause of one executor key of the chain (`address`), or of any of its keys when omitted. */
export async function loadPause(db: Queryable, chainId: string, address?: string): Promise<EnginePause | null> {
  const [row] = await db.query<{ paused_code: string | null; paused_message: string | null }>(
    `SELECT paused_code, paused_message FROM executor_status
     WHERE chain_id = $1 AND ($2::text IS NULL OR address = $2) AND paused_code IS NOT NULL
     ORDER BY address LIMIT 1`,
    [chainId, address ?? null],
  );
  return row?.paused_code ? { code: row.paused_code as EnginePause["code"], message: row.paused_message ?? "" } : null;
}
