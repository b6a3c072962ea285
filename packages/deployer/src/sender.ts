import type { TransactionReceipt, TransactionRequest } from "ethers";

/**
 * A transaction engine the deployer may send through instead of its signer (see
 * docs/architecture.md#transaction-engine). The engine owns the signer's nonces: many callers
 * share one account and their transactions share blocks. Without a sender the deployer signs
 * with local nonces after waiting for the account's pending transactions.
 */
export interface TxSender {
  /** The checksummed address every transaction of this sender comes from. */
  readonly from: string;
  /**
   * Takes the next `count` nonces at once (no other transaction of the account gets one in
   * between) and calls `build` with the first: it records what it plans (a crash after the
   * broadcast must find it) and returns the requests, without nonce or fees. Each is signed and
   * broadcast in order; `onSigned` runs before each broadcast, and again for every replacement
   * (same nonce, bumped fees), so the caller keeps every hash it was sent under, with the signed
   * transaction itself (`raw`) for a resumed run to send again. A `build` or `onSigned` that
   * throws leaves the nonces to the next caller: none is skipped.
   */
  sendBatch(
    count: number,
    build: (firstNonce: number) => Promise<TransactionRequest[]>,
    onSigned: (index: number, hash: string, nonce: number, raw: string) => Promise<void> | void,
  ): Promise<{ hash: string; nonce: number }[]>;
  /** The final receipt (after the engine's confirmation depth) of whatever transaction took `nonce`. */
  wait(nonce: number, what: string): Promise<TransactionReceipt>;
  /**
   * Resolves once `nonce` is taken on chain, or at once when nothing was ever broadcast with it
   * (a crash between recording and sending): what the chain shows afterwards is final for it.
   * With `resume`, the transaction an earlier run signed for `nonce` and recorded, a nonce the
   * node does not hold yet is given that very transaction again (it may still be on its way, or
   * never have left): a resumed run finishes what the crashed one sent instead of racing it.
   */
  settleNonce(nonce: number, resume?: SignedTx): Promise<void>;
}

/** A transaction signed before a crash, as its run recorded it. */
export interface SignedTx {
  raw: string;
  /** Runs for every replacement the engine signs for it (the caller keeps every hash). */
  onSigned: (hash: string, raw: string) => Promise<void> | void;
}
