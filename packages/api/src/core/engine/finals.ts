import type { JsonRpcProvider, TransactionReceipt } from "ethers";
import { newEntry, type InFlight } from "./inflight.js";

/** Final receipts kept for callers that ask after the nonce left the in-flight set. */
const FINALS_KEPT = 4096;
/** Final transactions whose signed bytes are kept by default (a bound on memory and on one reconciliation). */
export const KEEP_FINAL = 1024;
/** Lost nonces one look at the chain takes back at most; the rest are taken at the next looks. */
export const RECONCILE_PER_LOOK = 256;

/**
 * What the engine remembers of final transactions: their receipts (for late `wait` calls) and, until
 * `finalityBlocks` deep and at most `keepFinal` of them, their signed bytes, so that a reorg deeper than
 * the engine's confirmations can send them again as they were (docs/architecture.md#nodes-and-networks).
 */
export class Finals {
  private readonly receipts = new Map<number, TransactionReceipt>();
  /** Final entries with their signed bytes, oldest first. */
  private readonly settled = new Map<number, InFlight>();
  /** One past the highest nonce seen final: a chain nonce below it means a reorg took final transactions. */
  top = 0;

  constructor(
    private readonly keepFinal = KEEP_FINAL,
    private readonly finalityBlocks = 64,
  ) {}

  receipt(nonce: number): TransactionReceipt | undefined {
    return this.receipts.get(nonce);
  }

  /** Records an entry whose receipt `e.mined` became final in block `head`'s view. */
  add(e: InFlight, head: number): void {
    if (this.receipts.size >= FINALS_KEPT) this.receipts.delete(this.receipts.keys().next().value!);
    this.receipts.set(e.nonce, e.mined!);
    this.top = Math.max(this.top, e.nonce + 1);
    // The signed bytes outlive the receipt: a reorg deeper than the confirmations sends them again.
    if (e.raw) {
      this.settled.delete(e.nonce);
      this.settled.set(e.nonce, e);
      this.forget(head);
    }
  }

  /** Drops kept bytes `finalityBlocks` deep (no reorg reaches them) and beyond `keepFinal` (bounded by it). */
  forget(head: number): void {
    for (const [n, e] of this.settled) {
      if (this.settled.size <= this.keepFinal && head - e.mined!.blockNumber < this.finalityBlocks) break;
      this.settled.delete(n);
    }
  }

  /**
   * Whether a chain nonce `latest` below {@link top} is a reorg: only if the newest final receipt kept is gone
   * too, since an endpoint that lags behind the others answers an old nonce and still knows the receipt.
   */
  async reorged(provider: JsonRpcProvider, latest: number): Promise<boolean> {
    if (latest >= this.top) return false;
    const newest = [...this.settled.values()].at(-1);
    // None kept, or the newest kept is below the chain's nonce (lost ones already went back in flight): trust it.
    if (!newest?.mined || newest.nonce < latest) return true;
    return (await provider.getTransactionReceipt(newest.mined.hash)) === null;
  }

  /**
   * The final nonces from `latest` on that a reorg took (at most {@link RECONCILE_PER_LOOK}, none already in
   * `inflight`), as in-flight entries again: with the bytes they were mined with when kept (sent again as they
   * were), empty otherwise (filled). The caller puts them in flight.
   */
  takeBack(latest: number, head: number, inflight: ReadonlyMap<number, InFlight>): InFlight[] {
    const lost: InFlight[] = [];
    const last = Math.min(this.top, latest + RECONCILE_PER_LOOK);
    for (let n = latest; n < last; n++) {
      if (inflight.has(n)) continue;
      const kept = this.settled.get(n);
      this.settled.delete(n);
      this.receipts.delete(n);
      lost.push(
        kept?.raw
          ? Object.assign(kept, { mined: null, takenLooks: 0, repriceNow: false, sentAtBlock: head, waiters: [] })
          : newEntry(n, null, null, head),
      );
    }
    return lost;
  }
}
