import type { Queryable } from "../db/db.js";

/**
 * What the ledger's commits tell other modules (the way Ponder's sync emits block, finalize and
 * reorg), so that the ledger never calls into them (docs/architecture.md#the-api-in-three-layers).
 * Subscribers hear every event once its commit is done (wake-ups); listeners hear a reorg inside
 * the rollback's transaction (their writes land or go with it). A range's commit has no listener:
 * an empty range's is one statement (./emptyCommit.ts), with no transaction to write in.
 */
export type LedgerEvent =
  | {
      /**
       * A range was committed: the cursor moved to `block`, or a program that lagged behind
       * the cursor caught up to `block` (then `block` is at or below the cursor).
       */
      type: "block";
      chainId: string;
      block: { number: number; hash: string };
      /** Ledger events this commit stored (0: an empty range, or every log was stored before). */
      events: number;
    }
  | {
      /**
       * The ledger's finalized block advanced: the newest block stored (ledger_blocks) at or
       * below the cursor less LEDGER_MAX_REORG_DEPTH. The indexer never rolls back deeper than
       * that below its cursor (it halts instead), so a reorg seen from this cursor cannot remove
       * it. Announced only above the last one this process announced, never backwards; after a
       * reorg the depth counts from the rolled-back cursor (docs/architecture.md#the-api-in-three-layers).
       */
      type: "finalized";
      chainId: string;
      block: { number: number; hash: string };
    }
  | {
      type: "reorg";
      chainId: string;
      /** The newest indexed block the chain still has: everything above it goes. */
      ancestor: { number: number; hash: string };
    };

/** A reorg's event: the rollback to `ancestor`. */
export type LedgerReorg = Extract<LedgerEvent, { type: "reorg" }>;

/** Hears a reorg inside the rollback's transaction; a throw rolls the rollback back. */
export type LedgerListener = (tx: Queryable, event: LedgerReorg) => Promise<void>;

/** Hears an event after its transaction committed; a throw (or rejection) is logged, nothing more. */
export type LedgerSubscriber = (event: LedgerEvent) => void | Promise<void>;

/**
 * The after-commit subscribers. They run on the indexer's pass, one after another, so they must
 * be quick (a wake-up); one that fails is reported to `onError` and the others still hear the event.
 */
export class LedgerSubscribers {
  // One entry per subscribe call: the same function subscribed twice hears twice, and each
  // unsubscribe removes only its own entry.
  private readonly entries = new Set<{ fn: LedgerSubscriber }>();

  constructor(private readonly onError: (err: unknown, event: LedgerEvent) => void) {}

  /** Adds `fn`; the function returned removes it. */
  subscribe(fn: LedgerSubscriber): () => void {
    const entry = { fn };
    this.entries.add(entry);
    return () => {
      this.entries.delete(entry);
    };
  }

  notify(events: readonly LedgerEvent[]): void {
    for (const event of events) {
      for (const { fn } of [...this.entries]) {
        try {
          const r = fn(event);
          if (r instanceof Promise) r.catch((e: unknown) => this.report(e, event));
        } catch (e) {
          this.report(e, event);
        }
      }
    }
  }

  private report(err: unknown, event: LedgerEvent): void {
    try {
      this.onError(err, event);
    } catch {
      // The report itself failed (a broken logger): the ledger goes on all the same.
    }
  }
}
