import type { BlockRef, FollowedProgram, RangeCommit } from "../../core/ledger/store.js";
import type { QuietTip } from "./tip.js";

/**
 * What a step read from the database and keeps while this instance holds the chain's lease: only
 * a lease holder writes them (every write is fenced by the lease, the cursor's move also by its
 * old value), so they change only through this instance's own writes, which update them here.
 */
export interface Held {
  programs?: FollowedProgram[];
  cursor?: BlockRef;
  /** The quiet headers the passes read after the cursor (tip.ts). */
  tip?: QuietTip;
}

/**
 * Per chain, what the indexer keeps in memory while it holds the chain's lease (`Held`), so a step
 * on a new block reads nothing from the database (packages/api/README.md#the-indexer). Dropped
 * when the lease was refused or may have lapsed, after a reorg and after any failed step.
 */
export class HeldChains {
  private readonly chains = new Map<string, Held>();

  /** The chain's kept state; empty when nothing is kept yet. */
  of(chainId: string): Held {
    let held = this.chains.get(chainId);
    if (!held) this.chains.set(chainId, (held = {}));
    return held;
  }

  /** Forgets the chain's kept state: the next step reads it again. */
  drop(chainId: string): void {
    this.chains.delete(chainId);
  }

  /** What a commit wrote: the cursor's move, the programs' `syncedTo` (announced ones read again). */
  committed(chainId: string, c: RangeCommit): void {
    const held = this.chains.get(chainId);
    if (!held) return;
    if (c.cursorFrom) held.cursor = c.to;
    const synced = new Set(c.programIds);
    held.programs =
      c.discovered.length > 0
        ? undefined
        : held.programs?.map((p) =>
            synced.has(p.programId) ? { ...p, syncedTo: Math.max(p.syncedTo, c.to.number) } : p,
          );
  }
}
