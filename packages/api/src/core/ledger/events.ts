import type { Queryable } from "../db/db.js";

/**
 * What the ledger's commits tell other modules (the way Ponder's sync does), so that the ledger
 * never calls into them: a listener runs inside the commit's transaction and its writes land or
 * go with the ledger's. Only `reorg` has a listener today (webhooks: `removed` deliveries).
 */
export type LedgerEvent = {
  type: "reorg";
  chainId: string;
  /** The newest indexed block the chain still has: everything above it goes. */
  ancestor: { number: number; hash: string };
};

export type LedgerListener = (tx: Queryable, event: LedgerEvent) => Promise<void>;
