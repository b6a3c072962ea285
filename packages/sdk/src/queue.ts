import { getAddress, type Signer, type TransactionReceipt } from "ethers";
import { PointsApiError } from "./errors.js";
import { broadcastTx, checkSigner, waitTx, type SignedTx, type WaitOptions } from "./chain.js";
import type { PreparedTx } from "./transaction.js";

/** Builds one queued transaction with this nonce under this idempotency key. */
export type QueuedBuild = (nonce: number, idempotencyKey: string) => Promise<PreparedTx>;

export interface NonceQueueOptions extends WaitOptions {
  /** Broadcasts of the same signed bytes after a failure before giving up (default 2). */
  broadcastRetries?: number;
  /** Called with each signed transaction before it is broadcast (store the hash first). */
  onSigned?: (signed: SignedTx, idempotencyKey: string) => void | Promise<void>;
}

/**
 * Sends one signer's transactions in nonce order, in one process. Building, signing and
 * broadcasting take turns (so nonces have no gap: a build that fails uses none); waiting for
 * receipts runs in parallel. Each job has an idempotency key, so a retried job gets the same
 * transaction from the API and at most one of its transactions is ever mined:
 * - the same key while a job runs joins it;
 * - a key the API already built with another nonce is rebuilt with that nonce (the same bytes);
 * - a transaction whose nonce another one took can never be mined, so the job is built again
 *   under a key derived from the dead one, which a later retry derives the same way.
 * Several processes must not share a signer through separate queues (their nonces collide).
 */
export class NonceQueue {
  private next: number | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly running = new Map<string, Promise<TransactionReceipt>>();

  constructor(
    private readonly signer: Signer,
    private readonly opts: NonceQueueOptions = {},
  ) {}

  /** Sends the job `build` describes and resolves to its receipt. */
  submit(idempotencyKey: string, build: QueuedBuild): Promise<TransactionReceipt> {
    const joined = this.running.get(idempotencyKey);
    if (joined) return joined;
    const job = this.run(idempotencyKey, build).finally(() => this.running.delete(idempotencyKey));
    this.running.set(idempotencyKey, job);
    return job;
  }

  private async run(key: string, build: QueuedBuild): Promise<TransactionReceipt> {
    const provider = this.signer.provider;
    if (!provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to broadcast with");
    const signed = await this.inTurn(() => this.place(key, build));
    return waitTx(provider, signed.hash, this.opts);
  }

  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.turn.then(fn);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async place(key: string, build: QueuedBuild): Promise<SignedTx> {
    let attemptKey = key;
    for (;;) {
      const nonce = (this.next ??= await this.pendingNonce());
      let tx: PreparedTx;
      try {
        tx = await build(nonce, attemptKey);
      } catch (e) {
        const d = conflict(e);
        if (d?.route !== undefined && typeof d.nonce === "number") {
          tx = await build(d.nonce, attemptKey); // built before: the same bytes again
        } else if (typeof d?.next === "number") {
          this.next = d.next; // the nonce was spent elsewhere
          continue;
        } else throw e;
      }
      const provider = await checkSigner(tx, this.signer);
      const signed = await tx.sign(this.signer);
      await this.opts.onSigned?.(signed, attemptKey);
      try {
        await this.broadcast(provider, signed);
      } catch (e) {
        if (!(e instanceof PointsApiError && e.code === "NONCE_CONFLICT")) {
          // It may have reached the node after all: read the next nonce from the chain again.
          this.next = undefined;
          throw e;
        }
        this.next = await this.pendingNonce();
        attemptKey = `${attemptKey}.r${signed.nonce}`;
        continue;
      }
      if (signed.nonce >= this.next!) this.next = signed.nonce + 1;
      return signed;
    }
  }

  private async broadcast(provider: NonNullable<Signer["provider"]>, signed: SignedTx) {
    const retries = this.opts.broadcastRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        return await broadcastTx(provider, signed);
      } catch (e) {
        if (!(e instanceof PointsApiError && e.code === "BROADCAST_FAILED") || attempt >= retries) throw e;
      }
    }
  }

  private async pendingNonce(): Promise<number> {
    const address = getAddress(await this.signer.getAddress());
    return this.signer.provider!.getTransactionCount(address, "pending");
  }
}

/** `details` of a 409: an Idempotency-Key built before (`route`, `nonce`) or a spent nonce (`next`). */
function conflict(e: unknown): { route?: string; nonce?: number; next?: number } | undefined {
  if (!(e instanceof PointsApiError) || e.code !== "CONFLICT") return undefined;
  return e.details as { route?: string; nonce?: number; next?: number };
}
