import type { TransactionReceipt, TransactionRequest } from "ethers";
import type { Fees } from "./fees.js";

/** A nonce the engine handed out and has not seen final yet. */
export interface InFlight {
  nonce: number;
  /** What was asked for (no nonce, no fees); null for a nonce found pending at start (sent before a crash). */
  request: TransactionRequest | null;
  fees: Fees | null;
  /** The signed transaction last sent for this nonce, re-sent when the node forgets it. */
  raw: string | null;
  /** Every hash sent for this nonce, oldest first (replacements add to it). */
  hashes: string[];
  /** The block the current version was sent in: the replacement deadline counts from it. */
  sentAtBlock: number;
  /** The node refused the current version for its price (under the base fee, an underpriced replacement): replaced at the next look. */
  repriceNow: boolean;
  /** The receipt of whichever hash took the nonce, while it is not final yet. */
  mined: TransactionReceipt | null;
  /** Consecutive looks that found the nonce taken but none of its hashes mined. */
  takenLooks: number;
  /** Runs for every hash before it is broadcast (the caller's record of it and of the signed transaction). */
  onSigned: (hash: string, raw: string) => Promise<void> | void;
  waiters: { resolve: (r: TransactionReceipt) => void; reject: (e: unknown) => void }[];
}

/** A replacement, as the engine reports it (the fault tests print the distribution). */
export interface ReplacementEvent {
  nonce: number;
  /** The block the replaced version was due by (sent + replaceAfterBlocks). */
  deadlineBlock: number;
  hash: string;
  fees: Fees;
}

/** A transaction that became final, as the engine reports it. */
export interface FinalEvent {
  nonce: number;
  hash: string;
  blockNumber: number;
  /** How many hashes the nonce was sent under (1: never replaced). */
  versions: number;
}

/**
 * A reorg took nonces the engine had seen final off the chain (docs/architecture.md#nodes-and-networks): the account's
 * nonce fell to `fromNonce` below `toNonce`. Each lost nonce was sent again with the signed bytes kept for it
 * (`resent`), or, its bytes no longer kept, filled with an empty transaction (`filled`); `hashes` holds the hash sent
 * for every lost nonce, in nonce order.
 */
export interface ReorgEvent {
  fromNonce: number;
  toNonce: number;
  resent: number[];
  filled: number[];
  hashes: string[];
}

/** A nonce handed out (or found pending at start: no request) in block `head`, not signed yet. */
export function newEntry(nonce: number, request: TransactionRequest | null, fees: Fees | null, head: number): InFlight {
  return {
    nonce,
    request,
    fees,
    raw: null,
    hashes: [],
    sentAtBlock: head,
    repriceNow: false,
    mined: null,
    takenLooks: 0,
    onSigned: () => {},
    waiters: [],
  };
}
