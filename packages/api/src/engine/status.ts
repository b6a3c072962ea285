import type { Queryable } from "../db/db.js";
import type { EnginePause } from "./engine.js";

/** Records whether the chain's executor is paused (the worker writes, the task view reads). */
export async function savePause(db: Queryable, chainId: string, address: string, p: EnginePause | null): Promise<void> {
  await db.query(
    `INSERT INTO executor_status (chain_id, address, paused_code, paused_message, updated_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (chain_id) DO UPDATE SET address = $2, paused_code = $3, paused_message = $4, updated_at = now()`,
    [chainId, address, p?.code ?? null, p?.message ?? null],
  );
}

/** The chain's executor pause, if any. */
export async function loadPause(db: Queryable, chainId: string): Promise<EnginePause | null> {
  const [row] = await db.query<{ paused_code: string | null; paused_message: string | null }>(
    "SELECT paused_code, paused_message FROM executor_status WHERE chain_id = $1",
    [chainId],
  );
  return row?.paused_code ? { code: row.paused_code as EnginePause["code"], message: row.paused_message ?? "" } : null;
}
