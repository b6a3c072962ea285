import { Transaction, type TransactionRequest } from "ethers";
import type { Logger } from "pino";
import type { SignedTx } from "@points/deployer";
import type { Fees } from "./fees.js";
import { newEntry, type InFlight } from "./inflight.js";

/**
 * What resuming after a crash reads and changes of one engine (engine.ts hands over its own state): the engine
 * keeps owning the nonces; this module decides what a nonce sent before the restart becomes.
 */
export interface ResumeLane {
  from: string;
  chainId: number;
  logger: Logger;
  inflight: Map<number, InFlight>;
  /** Takes out the entry kept for a nonce once final (finals.ts). */
  takeKept: (nonce: number) => InFlight | undefined;
  head: () => number;
  next: () => number;
  setNext: (nonce: number) => void;
  /** Sends signed bytes (engine.ts); throws only when the node refused them for good. */
  broadcast: (raw: string, e: InFlight) => Promise<void>;
}

/**
 * Puts in flight the nonces between the chain's `latest` and `pending` at start (sent before a crash, or by another
 * holder of the key): the engine watches them and fills any the node drops.
 */
export function watchPendingAtStart(lane: ResumeLane, latest: number, pending: number, head: number): void {
  for (let n = latest; n < pending; n++) lane.inflight.set(n, pendingAtStart(lane, n, head));
  if (pending > latest) lane.logger.warn({ latest, pending }, "engine: found pending transactions at start");
}

/**
 * A nonce pending at start: with the bytes kept for it when it was final once (a reorg put it back in the node's
 * pool), so a drop sends it again instead of filling it; otherwise unknown, filled if dropped.
 */
function pendingAtStart(lane: ResumeLane, nonce: number, head: number): InFlight {
  const e = newEntry(nonce, null, null, head);
  const kept = lane.takeKept(nonce);
  const tx = kept?.raw ? readSigned(kept.raw, { from: lane.from, nonce, chainId: lane.chainId }) : null;
  return tx ? Object.assign(e, { request: tx.request, fees: tx.fees, raw: kept!.raw, hashes: [tx.hash] }) : e;
}

/**
 * Takes on the transaction a crashed run signed for the next nonce and sends it again as it
 * was: the node may never have had it, or may get it late from the dead process (or another
 * endpoint), and a new transaction for the same purpose would then take a second nonce. Not
 * the next nonce (taken meanwhile, or one below it was never sent), not this key's, or refused
 * by the node: left alone, and the caller sends anew. A nonce found pending at start gets its
 * transaction too, so the node dropping it means sending it again, not filling the nonce.
 * Runs under the engine's nonce lock.
 */
export async function adopt(lane: ResumeLane, nonce: number, signed: SignedTx): Promise<void> {
  const pendingAtStart = lane.inflight.get(nonce);
  if (nonce !== lane.next() && pendingAtStart?.raw !== null) return;
  const tx = readSigned(signed.raw, { from: lane.from, nonce, chainId: lane.chainId });
  if (!tx) {
    lane.logger.warn({ nonce }, "engine: a recorded transaction is not this key's next one; it is sent anew");
    return;
  }
  const taken = { request: tx.request, fees: tx.fees, raw: signed.raw, hashes: [tx.hash], onSigned: signed.onSigned };
  if (pendingAtStart) {
    Object.assign(pendingAtStart, taken);
    return;
  }
  const entry = Object.assign(newEntry(nonce, null, null, lane.head()), taken);
  lane.setNext(nonce + 1);
  lane.inflight.set(nonce, entry);
  try {
    await lane.broadcast(signed.raw, entry);
    lane.logger.info({ nonce, hash: tx.hash }, "engine: sent again a transaction signed before a restart");
  } catch (e) {
    lane.inflight.delete(nonce);
    lane.setNext(nonce);
    lane.logger.warn(
      { err: e, nonce },
      "engine: the node refused a transaction signed before a restart; it is sent anew",
    );
  }
}

/**
 * What a recorded signed transaction asks for, if it is `from`'s type-2 transaction for `nonce`
 * on `chainId` (a resumed run takes on nothing else); null otherwise, or when it does not parse.
 */
function readSigned(
  raw: string,
  expect: { from: string; nonce: number; chainId: number },
): { request: TransactionRequest; fees: Fees; hash: string } | null {
  let tx: Transaction;
  try {
    tx = Transaction.from(raw);
  } catch {
    return null;
  }
  if (tx.from !== expect.from || tx.nonce !== expect.nonce || tx.chainId !== BigInt(expect.chainId) || tx.type !== 2)
    return null;
  return {
    request: { to: tx.to, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, chainId: tx.chainId },
    fees: { maxFeePerGas: tx.maxFeePerGas!, maxPriorityFeePerGas: tx.maxPriorityFeePerGas! },
    hash: tx.hash!,
  };
}
