import { getAddress, type Signer, type TransactionReceipt } from "ethers";
import { PointsApiError } from "./errors.js";
import { broadcastTx, checkSigner, fromNode, stopIfAborted, waitTx, type SignedTx, type WaitOptions } from "./chain.js";
import type { PreparedTx } from "./types.js";

/** Builds one queued transaction with this nonce under this idempotency key. */
export type QueuedBuild = (nonce: number, idempotencyKey: string) => Promise<PreparedTx>;

export interface NonceQueueOptions extends WaitOptions {
  /** Broadcasts of the same signed bytes after a failure before giving up (default 2). */
  broadcastRetries?: number;
  /** Called with each signed transaction before it is broadcast (store the hash first). */
  onSigned?: (signed: SignedTx, idempotencyKey: string) => void | Promise<void>;
}

/**
 * Sends one address's transactions in nonce order, in one process. Building, signing and
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
  /** The next nonce to use; read from the chain when unknown. */
  next: number | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly running = new Map<string, Promise<TransactionReceipt>>();

  /** Sends the job `build` describes, signed by `signer` (always the same address), and resolves to its receipt. */
  submit(
    idempotencyKey: string,
    build: QueuedBuild,
    signer: Signer,
    opts: NonceQueueOptions = {},
  ): Promise<TransactionReceipt> {
    const joined = this.running.get(idempotencyKey);
    if (joined) return joined;
    const job = new Job(signer, opts)
      .run(idempotencyKey, build, this)
      .finally(() => this.running.delete(idempotencyKey));
    this.running.set(idempotencyKey, job);
    return job;
  }

  /** Runs `fn` once every earlier turn has finished. */
  inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.turn.then(fn);
    this.turn = result.catch(() => undefined);
    return result;
  }
}

/** One submission: its signer and options, placed in the queue's turn. */
class Job {
  constructor(
    private readonly signer: Signer,
    private readonly opts: NonceQueueOptions,
  ) {}

  async run(key: string, build: QueuedBuild, queue: { next: number | undefined; inTurn: NonceQueue["inTurn"] }) {
    const provider = this.signer.provider;
    if (!provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to broadcast with");
    const signed = await queue.inTurn(() => this.place(key, build, queue));
    return waitTx(provider, signed.hash, this.opts);
  }

  private async place(key: string, build: QueuedBuild, queue: { next: number | undefined }): Promise<SignedTx> {
    let attemptKey = key;
    const signal = this.opts.signal;
    for (;;) {
      stopIfAborted(signal, "queued");
      const nonce = (queue.next ??= await this.pendingNonce());
      let tx: PreparedTx;
      try {
        tx = await build(nonce, attemptKey);
      } catch (e) {
        const d = conflict(e);
        if (d?.route !== undefined && typeof d.nonce === "number") {
          tx = await build(d.nonce, attemptKey); // built before: the same bytes again
        } else if (typeof d?.next === "number") {
          queue.next = d.next; // the nonce was spent elsewhere
          continue;
        } else throw e;
      }
      stopIfAborted(signal, "built");
      const provider = await checkSigner(tx, this.signer);
      const signed = await tx.sign(this.signer);
      await this.opts.onSigned?.(signed, attemptKey);
      // Not broadcast: the same order later gets the same bytes from the API (its key).
      stopIfAborted(signal, "signed", signed.hash);
      try {
        await this.broadcast(provider, signed);
      } catch (e) {
        if (!(e instanceof PointsApiError && e.code === "NONCE_CONFLICT")) {
          // It may have reached the node after all: read the next nonce from the chain again.
          queue.next = undefined;
          throw e;
        }
        queue.next = await this.pendingNonce();
        attemptKey = `${attemptKey}.r${signed.nonce}`;
        continue;
      }
      if (signed.nonce >= queue.next!) queue.next = signed.nonce + 1;
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
    return fromNode("the signer's pending nonce", () => this.signer.provider!.getTransactionCount(address, "pending"));
  }
}

/** `details` of a 409: an Idempotency-Key built before (`route`, `nonce`) or a spent nonce (`next`). */
function conflict(e: unknown): { route?: string; nonce?: number; next?: number } | undefined {
  if (!(e instanceof PointsApiError) || e.code !== "CONFLICT") return undefined;
  return e.details as { route?: string; nonce?: number; next?: number };
}
