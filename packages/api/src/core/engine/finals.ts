import type { JsonRpcProvider, TransactionReceipt } from "ethers";
import type { Logger } from "pino";
import { newEntry, type InFlight } from "./inflight.js";
import type { KeptStore, KeptTx } from "./kept.js";

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
  /** The chain's block 0, written beside each kept transaction (set by {@link restore}). */
  private genesis?: string;

  constructor(
    private readonly keepFinal = KEEP_FINAL,
    private readonly finalityBlocks = 64,
    /** Where the kept bytes outlive this process (the next holder of the key reads them back); none: memory only. */
    private readonly store?: { kept: KeptStore; logger: Logger },
  ) {}

  /**
   * Takes back what an earlier holder of the key kept (a restart, a lease takeover): each as a final entry with its
   * signed bytes, so a reorg found later sends them again as they were.
   */
  async restore(provider: JsonRpcProvider): Promise<void> {
    if (!this.store) return;
    this.genesis = (await provider.getBlock(0))!.hash!;
    const kept = await this.store.kept.load();
    // Kept on a chain that has since started afresh under the same id (a dev node restarted): never sent there.
    const elsewhere = kept.filter((k) => k.genesis !== this.genesis).map((k) => k.nonce);
    if (elsewhere.length > 0) {
      this.store.logger.warn({ count: elsewhere.length }, "engine: kept transactions of another chain dropped");
      this.persist("drop", elsewhere);
    }
    for (const k of kept.filter((k) => k.genesis === this.genesis)) {
      const e = Object.assign(newEntry(k.nonce, null, null, k.blockNumber), {
        raw: k.raw,
        hashes: [k.hash],
        // What `forget` and `reorged` read of a receipt: its block and hash.
        mined: { hash: k.hash, blockNumber: k.blockNumber } as TransactionReceipt,
      });
      this.settled.set(k.nonce, e);
      this.top = Math.max(this.top, k.nonce + 1);
    }
  }

  /** Takes a kept final transaction out (a nonce found pending at start gets its bytes back). */
  take(nonce: number): InFlight | undefined {
    const e = this.settled.get(nonce);
    this.settled.delete(nonce);
    return e;
  }

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
      if (this.genesis)
        this.persist("save", {
          nonce: e.nonce,
          hash: e.mined!.hash,
          raw: e.raw,
          blockNumber: e.mined!.blockNumber,
          genesis: this.genesis,
        });
      this.forget(head);
    }
  }

  /** Drops kept bytes `finalityBlocks` deep (no reorg reaches them) and beyond `keepFinal` (bounded by it). */
  forget(head: number): void {
    const dropped: number[] = [];
    for (const [n, e] of this.settled) {
      if (this.settled.size <= this.keepFinal && head - e.mined!.blockNumber < this.finalityBlocks) break;
      this.settled.delete(n);
      dropped.push(n);
    }
    if (dropped.length > 0) this.persist("drop", dropped);
  }

  /**
   * Writes through to the store without holding up the engine's look at the chain: a write that fails costs only
   * what the store adds (the next holder of the key fills those nonces instead of sending them again), and says so.
   */
  private persist(op: "save", tx: KeptTx): void;
  private persist(op: "drop", nonces: number[]): void;
  private persist(op: "save" | "drop", arg: KeptTx | number[]): void {
    if (!this.store) return;
    const { kept, logger } = this.store;
    const write = op === "save" ? kept.save(arg as KeptTx) : kept.drop(arg as number[]);
    write.catch((err) => logger.warn({ err, op }, "engine: could not write a kept final transaction"));
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
