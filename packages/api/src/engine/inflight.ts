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
