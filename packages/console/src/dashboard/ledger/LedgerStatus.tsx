import type { LedgerStand } from "./useLedger";

/** The block a ledger answer is consistent with, or that the ledger is still catching up. */
export function LedgerStatus({ stand }: { stand: LedgerStand | null }) {
  if (!stand) return null;
  if (stand.block === null) {
    return (
      <p className="notice" role="status" data-testid="ledger-status">
        Catching up: the ledger has not reached this program yet. This page updates by itself.
      </p>
    );
  }
  if (stand.behind) {
    return (
      <p className="notice" role="status" data-testid="ledger-status">
        Catching up: the ledger is at block {stand.block.toLocaleString("en-US")}, the chain at{" "}
        {stand.head?.toLocaleString("en-US")}. This page updates by itself.
      </p>
    );
  }
  return (
    <p className="muted small" data-testid="ledger-status">
      From the ledger, as of block {stand.block.toLocaleString("en-US")}.
    </p>
  );
}
