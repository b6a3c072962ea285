import type { Queryable } from "../db/db.js";

/** A block as the ledger stores it: store.ts's shapes, kept here since store.ts imports this file. */
interface BlockRef {
  number: number;
  hash: string;
}
interface BlockRow extends BlockRef {
  time: number;
}

/** What an empty range's commit needs: no event, no program announced, the cursor moving on. */
export interface EmptyRangeCommit {
  chainId: string;
  owner: string;
  leaseMs: number;
  programIds: string[];
  from: BlockRef;
  to: BlockRow;
  /** Blocks below this are deleted (KEEP_BLOCKS under `to`). */
  keepFrom: number;
  /** The finalized block is the newest stored at or below `to` less this (LEDGER_MAX_REORG_DEPTH, > 0). */
  maxReorgDepth: number;
}

export interface EmptyRangeCommitted {
  /** False when nothing was written: the lease is another instance's, or the cursor is not at `from`. */
  moved: boolean;
  /** The finalized block before the commit (from `from`) and after it (from `to`). */
  finalizedBefore?: BlockRef;
  finalizedAfter?: BlockRef;
}

/**
 * The commit of a range with no log in one statement: the lease renewed, the cursor moved from
 * `from` to `to`, the programs' synced_to raised, `to`'s header stored and blocks under `keepFrom`
 * pruned, all or none (each write waits on the one before through EXISTS; PostgreSQL runs every
 * data-modifying WITH to completion whether or not the SELECT reads it), and the finalized block
 * before and after read. A caught-up indexer makes one such commit per `fullStepMs` (pacing.ts): one
 * round trip instead of the eight of a transaction. The reads see the statement's snapshot, before
 * its writes: `to` is above both finalized blocks (the depth is positive) and a pruned block is
 * left out of the one after by `keepFrom`.
 */
export async function commitEmptyRange(db: Queryable, c: EmptyRangeCommit): Promise<EmptyRangeCommitted> {
  if (c.maxReorgDepth <= 0) throw new Error("an empty range's one-statement commit needs a positive reorg depth");
  const [row] = await db.query<{
    moved: string | number;
    before_number: string | number | null;
    before_hash: string | null;
    after_number: string | number | null;
    after_hash: string | null;
  }>(
    `WITH fence AS (
       UPDATE ledger_leases SET expires_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE chain_id = $1 AND owner = $2
         AND EXISTS (SELECT 1 FROM ledger_cursors WHERE chain_id = $1 AND block_number = $4::bigint AND block_hash = $5)
       RETURNING owner
     ), moved AS (
       UPDATE ledger_cursors SET block_number = $6::bigint, block_hash = $7, updated_at = now()
       WHERE chain_id = $1 AND block_number = $4::bigint AND block_hash = $5 AND EXISTS (SELECT 1 FROM fence)
       RETURNING chain_id
     ), synced AS (
       UPDATE ledger_programs SET synced_to = GREATEST(synced_to, $6::bigint)
       WHERE chain_id = $1 AND program_id = ANY($9::text[]) AND EXISTS (SELECT 1 FROM moved)
       RETURNING program_id
     ), stored AS (
       INSERT INTO ledger_blocks (chain_id, block_number, block_hash, block_time)
       SELECT $1, $6::bigint, $7, $8::bigint WHERE EXISTS (SELECT 1 FROM moved)
       ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time
       RETURNING block_number
     ), pruned AS (
       DELETE FROM ledger_blocks WHERE chain_id = $1 AND block_number < $10::bigint AND EXISTS (SELECT 1 FROM moved)
       RETURNING block_number
     )
     SELECT (SELECT count(*) FROM moved) AS moved,
       b.block_number AS before_number, b.block_hash AS before_hash,
       a.block_number AS after_number, a.block_hash AS after_hash
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (
       SELECT block_number, block_hash FROM ledger_blocks
       WHERE chain_id = $1 AND block_number <= $4::bigint - $11::bigint ORDER BY block_number DESC LIMIT 1
     ) b ON true
     LEFT JOIN LATERAL (
       SELECT block_number, block_hash FROM ledger_blocks
       WHERE chain_id = $1 AND block_number <= $6::bigint - $11::bigint AND block_number >= $10::bigint
       ORDER BY block_number DESC LIMIT 1
     ) a ON true`,
    [
      c.chainId,
      c.owner,
      c.leaseMs,
      c.from.number,
      c.from.hash,
      c.to.number,
      c.to.hash,
      c.to.time,
      c.programIds,
      c.keepFrom,
      c.maxReorgDepth,
    ],
  );
  const ref = (n: string | number | null, hash: string | null) =>
    n === null || hash === null ? undefined : { number: Number(n), hash };
  return {
    moved: Number(row!.moved) === 1,
    finalizedBefore: ref(row!.before_number, row!.before_hash),
    finalizedAfter: ref(row!.after_number, row!.after_hash),
  };
}
