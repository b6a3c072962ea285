import type { Logger } from "pino";
import type { Db, Queryable } from "../db/db.js";
import { releaseLease, takeLease } from "../db/leases.js";
import type { DecodedLog, LedgerContract } from "./decode.js";
import { commitEmptyRange } from "./emptyCommit.js";
import { applyEvents, rebuildState } from "./materialise.js";
import {
  LedgerSubscribers,
  type LedgerEvent,
  type LedgerListener,
  type LedgerReorg,
  type LedgerSubscriber,
} from "./events.js";

/** A program the indexer follows on one chain (addresses lowercase). */
export interface FollowedProgram {
  programId: string;
  source: "registry" | "factory";
  points: string;
  factory: string;
  collateralVault: string;
  pspVault: string;
  oracle: string | null;
  programFactory: string | null;
  fromBlock: number;
  syncedTo: number;
}

export interface BlockRef {
  number: number;
  hash: string;
}

export interface BlockRow extends BlockRef {
  time: number;
}

/** One decoded log as stored. */
export interface EventRow extends DecodedLog {
  blockNumber: number;
  logIndex: number;
  blockHash: string;
  blockTime: number;
  txHash: string;
  address: string;
  programId: string | null;
  contract: LedgerContract;
}

/** What one indexed range writes, all in one transaction with the lease check. */
export interface RangeCommit {
  events: EventRow[];
  blocks: BlockRow[];
  discovered: FollowedProgram[];
  /** These programs' logs are now complete up to `to`. */
  programIds: string[];
  to: BlockRef;
  /** Move the chain's cursor from `cursorFrom` to `to` (null: a lagging program's catch-up). */
  cursorFrom: BlockRef | null;
}

/** Thrown inside a commit when another instance holds the chain's lease: nothing is written. */
export class LeaseLost extends Error {}

/** Blocks kept below the cursor for finding a reorg's common ancestor. */
const KEEP_BLOCKS = 10_000;

/** LEDGER_MAX_REORG_DEPTH's default: the deepest reorg the indexer rolls back (deeper halts it). */
export const DEFAULT_MAX_REORG_DEPTH = 64;

export interface LedgerStoreOptions {
  /** Where a subscriber that throws is logged. */
  logger: Logger;
  /** Hear a reorg inside the rollback's transaction (./events.ts): for writes that must land with it. */
  listeners?: readonly LedgerListener[];
  /** The indexer's LEDGER_MAX_REORG_DEPTH: the finalized block is this far below the cursor. */
  maxReorgDepth?: number;
}

const lc = (a: string | null) => (a ? a.toLowerCase() : null);

interface ProgramDbRow {
  program_id: string;
  source: "registry" | "factory";
  points: string;
  factory: string;
  collateral_vault: string;
  psp_vault: string;
  oracle: string | null;
  program_factory: string | null;
  from_block: string | number;
  synced_to: string | number;
}

/** The ledger's tables (migration 008_ledger): cursors, leases, followed programs, blocks, events. */
export class LedgerStore {
  private readonly listeners: readonly LedgerListener[];
  private readonly subscribers: LedgerSubscribers;
  private readonly maxReorgDepth: number;
  /** Per chain, the last finalized block announced by this store (kept in memory: never announced backwards). */
  private readonly finalized = new Map<string, BlockRef>();

  constructor(
    private readonly db: Db,
    opts: LedgerStoreOptions,
  ) {
    this.listeners = opts.listeners ?? [];
    this.maxReorgDepth = opts.maxReorgDepth ?? DEFAULT_MAX_REORG_DEPTH;
    this.subscribers = new LedgerSubscribers((err, event) =>
      opts.logger.error({ err, chainId: event.chainId, event: event.type }, "ledger event subscriber failed"),
    );
  }

  /**
   * `fn` hears every ledger event once its transaction has committed (wake-ups: nothing it does
   * can undo the ledger's write, and a throw is only logged). Returns the unsubscribe.
   */
  subscribe(fn: LedgerSubscriber): () => void {
    return this.subscribers.subscribe(fn);
  }

  /** Tells the listeners inside the rollback's `tx`, in order; the subscribers hear it after the commit. */
  private async emit(tx: Queryable, event: LedgerReorg): Promise<void> {
    for (const listen of this.listeners) await listen(tx, event);
  }

  /** The newest stored block at or below `n`: the finalized block of a cursor `maxReorgDepth` above `n`. */
  private async storedAtOrBelow(q: Queryable, chainId: string, n: number): Promise<BlockRef | undefined> {
    if (n < 0) return undefined;
    const [row] = await q.query<{ block_number: string | number; block_hash: string }>(
      `SELECT block_number, block_hash FROM ledger_blocks WHERE chain_id = $1 AND block_number <= $2
       ORDER BY block_number DESC LIMIT 1`,
      [chainId, n],
    );
    return row ? { number: Number(row.block_number), hash: row.block_hash } : undefined;
  }

  /** Takes or renews the chain's lease; false while another live instance holds it. */
  lease(chainId: string, owner: string, leaseMs: number): Promise<boolean> {
    return takeLease(this.db, "ledger_leases", chainId, owner, leaseMs);
  }

  release(chainId: string, owner: string): Promise<void> {
    return releaseLease(this.db, "ledger_leases", chainId, owner);
  }

  /** Follows every registered program of the chain not yet followed, from its deploy block; how many it added. */
  async followRegistered(chainId: string): Promise<number> {
    const added = await this.db.query(
      `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
         oracle, program_factory, from_block, synced_to)
       SELECT chain_id, id, 'registry', lower(points), lower(factory), lower(collateral_vault), lower(psp_vault),
         lower(oracle), lower(program_factory), COALESCE(block_number, 0), COALESCE(block_number, 0) - 1
       FROM programs p WHERE chain_id = $1
         AND NOT EXISTS (SELECT 1 FROM ledger_programs l WHERE l.chain_id = p.chain_id
           AND (l.program_id = p.id OR l.factory = lower(p.factory)))
       RETURNING program_id`,
      [chainId],
    );
    return added.length;
  }

  async programs(chainId: string): Promise<FollowedProgram[]> {
    const rows = await this.db.query<ProgramDbRow>(
      "SELECT * FROM ledger_programs WHERE chain_id = $1 ORDER BY from_block, program_id",
      [chainId],
    );
    return rows.map((r) => ({
      programId: r.program_id,
      source: r.source,
      points: r.points,
      factory: r.factory,
      collateralVault: r.collateral_vault,
      pspVault: r.psp_vault,
      oracle: r.oracle,
      programFactory: r.program_factory,
      fromBlock: Number(r.from_block),
      syncedTo: Number(r.synced_to),
    }));
  }

  async cursor(chainId: string, q: Queryable = this.db): Promise<BlockRef | undefined> {
    const [row] = await q.query<{ block_number: string | number; block_hash: string }>(
      "SELECT block_number, block_hash FROM ledger_cursors WHERE chain_id = $1",
      [chainId],
    );
    return row ? { number: Number(row.block_number), hash: row.block_hash } : undefined;
  }

  /** The chain's first cursor (the block before the earliest program); the first writer wins. */
  async initCursor(chainId: string, block: BlockRow): Promise<BlockRef> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `INSERT INTO ledger_cursors (chain_id, block_number, block_hash) VALUES ($1, $2, $3)
         ON CONFLICT (chain_id) DO NOTHING RETURNING chain_id`,
        [chainId, block.number, block.hash],
      );
      if (rows.length === 1) await this.putBlocks(tx, chainId, [block]);
    });
    return (await this.cursor(chainId))!;
  }

  /** Stored block hashes at or below `atOrBelow`, newest first. */
  async blocksBelow(chainId: string, atOrBelow: number, limit: number): Promise<BlockRef[]> {
    const rows = await this.db.query<{ block_number: string | number; block_hash: string }>(
      `SELECT block_number, block_hash FROM ledger_blocks WHERE chain_id = $1 AND block_number <= $2
       ORDER BY block_number DESC LIMIT $3`,
      [chainId, atOrBelow, limit],
    );
    return rows.map((r) => ({ number: Number(r.block_number), hash: r.block_hash }));
  }

  private async fence(tx: Queryable, chainId: string, owner: string, leaseMs: number): Promise<void> {
    const ours = await tx.query(
      `UPDATE ledger_leases SET expires_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE chain_id = $1 AND owner = $2 RETURNING owner`,
      [chainId, owner, leaseMs],
    );
    if (ours.length !== 1) throw new LeaseLost(`chain ${chainId}: the ledger lease is held by another instance`);
  }

  private async putBlocks(tx: Queryable, chainId: string, blocks: BlockRow[]): Promise<void> {
    for (let i = 0; i < blocks.length; i += 500) {
      const chunk = blocks.slice(i, i + 500);
      const params: unknown[] = [chainId];
      const values = chunk.map((b) => {
        params.push(b.number, b.hash, b.time);
        const n = params.length;
        return `($1, $${n - 2}, $${n - 1}, $${n})`;
      });
      await tx.query(
        `INSERT INTO ledger_blocks (chain_id, block_number, block_hash, block_time) VALUES ${values.join(", ")}
         ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time`,
        params,
      );
    }
  }

  /** Stores the events not stored yet; returns those it stored. */
  private async putEvents(tx: Queryable, chainId: string, events: EventRow[]): Promise<EventRow[]> {
    const stored = new Set<string>();
    for (let i = 0; i < events.length; i += 400) {
      const chunk = events.slice(i, i + 400);
      const params: unknown[] = [chainId];
      const values = chunk.map((e) => {
        params.push(
          e.blockNumber,
          e.logIndex,
          e.blockHash,
          e.blockTime,
          e.txHash,
          e.address.toLowerCase(),
          e.programId,
          e.contract,
          e.event,
          JSON.stringify(e.args),
          e.campaignId,
          e.accounts,
        );
        const n = params.length - 12;
        return `($1, ${Array.from({ length: 12 }, (_, k) => `$${n + k + 1}`).join(", ")})`;
      });
      // A log is stored once: (chain, block, index) is its identity on the chain it was read from.
      const rows = await tx.query<{ block_number: string | number; log_index: number }>(
        `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
           program_id, contract, event, args, campaign_id, accounts) VALUES ${values.join(", ")}
         ON CONFLICT (chain_id, block_number, log_index) DO NOTHING RETURNING block_number, log_index`,
        params,
      );
      for (const r of rows) stored.add(`${r.block_number}.${r.log_index}`);
    }
    return events.filter((e) => stored.has(`${e.blockNumber}.${e.logIndex}`));
  }

  /**
   * Writes one indexed range, or nothing when the lease is no longer ours (LeaseLost). Emits
   * `block` (always) and `finalized` (when the cursor's move takes it past the last announced).
   */
  async commit(chainId: string, owner: string, leaseMs: number, c: RangeCommit): Promise<void> {
    const to = c.blocks.length === 1 && c.blocks[0]!.number === c.to.number ? c.blocks[0]! : undefined;
    if (c.events.length === 0 && c.discovered.length === 0 && c.cursorFrom && to && this.maxReorgDepth > 0) {
      return this.commitEmpty(chainId, owner, leaseMs, c.cursorFrom, to, c.programIds);
    }
    const events = await this.db.transaction(async (tx) => {
      await this.fence(tx, chainId, owner, leaseMs);
      // What was finalized before this commit: the last announced, else the one of the cursor it moves from.
      const before = c.cursorFrom
        ? (this.finalized.get(chainId) ??
          (await this.storedAtOrBelow(tx, chainId, c.cursorFrom.number - this.maxReorgDepth)))
        : undefined;
      if (c.cursorFrom) {
        const moved = await tx.query(
          `UPDATE ledger_cursors SET block_number = $2, block_hash = $3, updated_at = now()
           WHERE chain_id = $1 AND block_number = $4 AND block_hash = $5 RETURNING chain_id`,
          [chainId, c.to.number, c.to.hash, c.cursorFrom.number, c.cursorFrom.hash],
        );
        if (moved.length !== 1) throw new LeaseLost(`chain ${chainId}: the cursor moved under this indexer`);
      }
      for (const p of c.discovered) {
        await tx.query(
          `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
             oracle, program_factory, from_block, synced_to)
           VALUES ($1, $2, 'factory', $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
          [
            chainId,
            p.programId,
            lc(p.points),
            lc(p.factory),
            lc(p.collateralVault),
            lc(p.pspVault),
            lc(p.oracle),
            lc(p.programFactory),
            p.fromBlock,
            c.to.number,
          ],
        );
      }
      if (c.programIds.length > 0) {
        await tx.query(
          `UPDATE ledger_programs SET synced_to = GREATEST(synced_to, $3)
           WHERE chain_id = $1 AND program_id = ANY($2::text[])`,
          [chainId, c.programIds, c.to.number],
        );
      }
      // The state tables move with the events, each stored event applied exactly once.
      const stored = await this.putEvents(tx, chainId, c.events);
      await applyEvents(tx, chainId, stored);
      await this.putBlocks(tx, chainId, c.blocks);
      const emitted: LedgerEvent[] = [
        { type: "block", chainId, block: { number: c.to.number, hash: c.to.hash }, events: stored.length },
      ];
      if (c.cursorFrom) {
        await tx.query("DELETE FROM ledger_blocks WHERE chain_id = $1 AND block_number < $2", [
          chainId,
          c.to.number - KEEP_BLOCKS,
        ]);
        const now = await this.storedAtOrBelow(tx, chainId, c.to.number - this.maxReorgDepth);
        if (now && (!before || now.number > before.number)) emitted.push({ type: "finalized", chainId, block: now });
      }
      return emitted;
    });
    this.announce(chainId, events);
  }

  /** An empty range (no log, no program announced) committed in one statement (./emptyCommit.ts). */
  private async commitEmpty(
    chainId: string,
    owner: string,
    leaseMs: number,
    from: BlockRef,
    to: BlockRow,
    programIds: string[],
  ): Promise<void> {
    const done = await commitEmptyRange(this.db, {
      chainId,
      owner,
      leaseMs,
      programIds,
      from,
      to,
      keepFrom: to.number - KEEP_BLOCKS,
      maxReorgDepth: this.maxReorgDepth,
    });
    if (!done.moved) {
      throw new LeaseLost(
        `chain ${chainId}: the ledger lease is another instance's, or the cursor moved under this indexer`,
      );
    }
    const events: LedgerEvent[] = [{ type: "block", chainId, block: { number: to.number, hash: to.hash }, events: 0 }];
    const before = this.finalized.get(chainId) ?? done.finalizedBefore;
    const now = done.finalizedAfter;
    if (now && (!before || now.number > before.number)) events.push({ type: "finalized", chainId, block: now });
    this.announce(chainId, events);
  }

  /** Committed: only now does the store remember the finalized block and tell the subscribers. */
  private announce(chainId: string, events: LedgerEvent[]): void {
    for (const e of events) if (e.type === "finalized") this.finalized.set(chainId, e.block);
    this.subscribers.notify(events);
  }

  /** Builds the state of programs indexed before the state tables existed (migration 081); true if any. */
  async buildPendingState(chainId: string, owner: string, leaseMs: number): Promise<boolean> {
    const pending = await this.db.query<{ program_id: string }>(
      "SELECT program_id FROM ledger_programs WHERE chain_id = $1 AND state_pending",
      [chainId],
    );
    if (pending.length === 0) return false;
    const ids = pending.map((r) => r.program_id);
    await this.db.transaction(async (tx) => {
      await this.fence(tx, chainId, owner, leaseMs);
      await rebuildState(tx, chainId, ids);
      await tx.query(
        "UPDATE ledger_programs SET state_pending = false WHERE chain_id = $1 AND program_id = ANY($2::text[])",
        [chainId, ids],
      );
    });
    return true;
  }

  /**
   * A reorg: everything above `ancestor` (the newest indexed block the chain still has) goes,
   * programs announced above it are forgotten, and the cursor moves back to it.
   */
  async rollback(chainId: string, owner: string, leaseMs: number, ancestor: BlockRef): Promise<void> {
    const event: LedgerReorg = { type: "reorg", chainId, ancestor: { number: ancestor.number, hash: ancestor.hash } };
    await this.db.transaction(async (tx) => {
      await this.fence(tx, chainId, owner, leaseMs);
      // Listeners first (webhooks: a delivered event that goes gets its `removed` delivery).
      await this.emit(tx, event);
      const touched = await tx.query<{ program_id: string }>(
        "SELECT DISTINCT program_id FROM ledger_events WHERE chain_id = $1 AND block_number > $2 AND program_id IS NOT NULL",
        [chainId, ancestor.number],
      );
      await tx.query("DELETE FROM ledger_events WHERE chain_id = $1 AND block_number > $2", [chainId, ancestor.number]);
      // The programs whose events went get their state again from the events left (a reorg is rare).
      await rebuildState(
        tx,
        chainId,
        touched.map((r) => r.program_id),
      );
      await tx.query("DELETE FROM ledger_blocks WHERE chain_id = $1 AND block_number > $2", [chainId, ancestor.number]);
      await tx.query("DELETE FROM ledger_programs WHERE chain_id = $1 AND source = 'factory' AND from_block > $2", [
        chainId,
        ancestor.number,
      ]);
      await tx.query("UPDATE ledger_programs SET synced_to = LEAST(synced_to, $2) WHERE chain_id = $1", [
        chainId,
        ancestor.number,
      ]);
      await tx.query(
        "UPDATE ledger_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE chain_id = $1",
        [chainId, ancestor.number, ancestor.hash],
      );
    });
    // The finalized block announced is kept: one reorg from the cursor never reaches below it, and
    // announcing it again lower (from the rolled-back cursor) would be finality going backwards.
    this.subscribers.notify([event]);
  }
}
