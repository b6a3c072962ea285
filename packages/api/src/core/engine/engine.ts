import { EventEmitter } from "node:events";
import { type JsonRpcProvider, type TransactionReceipt, type TransactionRequest } from "ethers";
import type { TxSigner } from "@points/signers";
import type { Logger } from "pino";
import type { SignedTx, TxSender } from "@points/deployer";
import { EngineError } from "./errors.js";
import { detached } from "../detached.js";
import { engineStats, type EngineStats } from "../metrics/engines.js";
import { FeePolicy, type FeeCaps, type Fees } from "./fees.js";
import { Finals } from "./finals.js";
import type { KeptStore } from "./kept.js";
import { untilFunded, type EnginePause } from "./funds.js";
import { sendRaw, signType2 } from "./send.js";
import { newEntry, type FinalEvent, type InFlight, type ReorgEvent, type ReplacementEvent } from "./inflight.js";
import { adopt, watchPendingAtStart, type ResumeLane } from "./resume.js";

export interface EngineOptions {
  chainId: number;
  caps: FeeCaps;
  replaceAfterBlocks: number;
  confirmations: number;
  /** Below this balance (wei) sends wait; 0: never checked. */
  minBalance: bigint;
  /** How often the engine looks at the chain (a fraction of the block time). */
  pollMs: number;
  /** How long `wait` waits for a final receipt before it fails with TX_TIMEOUT (the transaction stays in flight). */
  waitTimeoutMs: number;
  logger: Logger;
  /**
   * Final transactions whose signed bytes stay kept, newest first, to send again if a reorg deeper than
   * `confirmations` removes them (default KEEP_FINAL in finals.ts); older lost nonces are filled with empty transactions.
   */
  keepFinal?: number;
  /** Blocks after which a final transaction's bytes are dropped: no reorg is expected deeper (default 64). */
  finalityBlocks?: number;
  /** Where kept signed bytes outlive the process (read back at start); none: kept in memory only. */
  kept?: KeptStore;
  /** Told when the engine pauses for funds or resumes (the task view shows it). */
  onPause?: (paused: EnginePause | null) => Promise<void> | void;
}

export type { EnginePause } from "./funds.js";

/** Looks in a row that must find a nonce taken without any of its hashes before NONCE_TAKEN. */
const TAKEN_LOOKS = 3;

/**
 * The transaction engine of one executor key on one chain (docs/architecture.md#transaction-engine).
 * It owns the key's nonces: callers get them one batch at a time under a lock, so many
 * transactions are in flight at once and none is reused or skipped. Every block it looks at
 * what it sent: a transaction the node forgot is re-sent, one not mined `replaceAfterBlocks`
 * after its sending is replaced (same nonce, fees bumped >= 10%), a receipt a reorg removed
 * goes back to pending, and a receipt `confirmations` deep is final. At start it takes the
 * chain's pending nonce; nonces pending from before a crash are watched and filled with an
 * empty transaction if the node drops them (resume.ts).
 */
export class TxEngine extends EventEmitter implements TxSender {
  readonly from: string;
  readonly fees: FeePolicy;
  paused: EnginePause | null = null;
  /** Set when the worker stops: tasks waiting for funds give up (and are resumed by the next worker). */
  halting = false;
  private next = 0;
  private latestNonce = 0;
  private head = 0;
  private readonly inflight = new Map<number, InFlight>();
  private readonly finals: Finals;
  private lock: Promise<unknown> = Promise.resolve();
  private started?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private tickWaiters: (() => void)[] = [];
  /** This engine's state as crash resumption (resume.ts) reads and changes it. */
  private readonly lane: ResumeLane;

  constructor(
    private readonly wallet: TxSigner,
    readonly provider: JsonRpcProvider,
    readonly opts: EngineOptions,
  ) {
    super();
    this.from = wallet.address;
    this.fees = new FeePolicy(provider, opts.caps, Math.max(50, opts.pollMs));
    this.finals = new Finals(
      opts.keepFinal,
      opts.finalityBlocks,
      opts.kept && { kept: opts.kept, logger: opts.logger },
    );
    this.lane = {
      from: this.from,
      chainId: opts.chainId,
      logger: opts.logger,
      inflight: this.inflight,
      takeKept: (nonce) => this.finals.take(nonce),
      head: () => this.head,
      next: () => this.next,
      setNext: (nonce) => (this.next = nonce),
      broadcast: (raw, e) => this.broadcast(raw, e),
    };
  }

  /** What a metrics scrape reads (src/core/metrics/engines.ts). */
  stats = (): EngineStats => engineStats(this.inflight.values(), this.next, this.latestNonce, this.head, this.paused);

  /** Reads the account's nonces and starts watching; idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      // What the key's previous holder kept: a reorg since then is found at the first look and its bytes sent again.
      await this.finals.restore(this.provider);
      const [latest, pending, head] = await Promise.all([
        this.nonceAt("latest"),
        this.nonceAt("pending"),
        this.blockNumber(),
      ]);
      // Above kept final nonces a reorg took while no engine ran: the first look sends them again (reconcile).
      [this.latestNonce, this.next, this.head] = [latest, Math.max(pending, this.finals.top), head];
      // Sent before a crash (or by another holder of the key): watched, filled if dropped.
      watchPendingAtStart(this.lane, latest, pending, head);
      this.schedule();
    })();
    // A start that failed (a dead RPC) is tried again by the next caller.
    this.started.catch(() => (this.started = undefined));
    return this.started;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const e of this.inflight.values())
      for (const w of e.waiters) w.reject(new EngineError("ENGINE_STOPPED", "the engine stopped"));
    this.tickWaiters.splice(0).forEach((w) => w());
    this.provider.destroy();
  }

  /** How the engine stands (operator views, tests). */
  status() {
    return {
      address: this.from,
      nextNonce: this.next,
      latestNonce: this.latestNonce,
      inFlight: this.inflight.size,
      paused: this.paused,
    };
  }

  async sendBatch(
    count: number,
    build: (firstNonce: number) => Promise<TransactionRequest[]>,
    onSigned: (index: number, hash: string, nonce: number, raw: string) => Promise<void> | void,
  ): Promise<{ hash: string; nonce: number }[]> {
    await this.start();
    return this.serial(async () => {
      await this.whenFunded();
      // Idle: another holder of the key (a CLI run, an operator) may have sent since; follow the chain.
      if (this.inflight.size === 0) {
        const pending = await this.nonceAt("pending");
        if (pending > this.next) {
          this.opts.logger.warn(
            { from: this.next, to: pending },
            "engine: the key was used elsewhere; nonces follow the chain",
          );
          this.next = pending;
        }
      }
      const first = this.next;
      const requests = await build(first);
      if (requests.length !== count)
        throw new Error(`engine: build returned ${requests.length} requests, not ${count}`);
      const fees = await this.fees.market();
      const out: { hash: string; nonce: number }[] = [];
      for (const [i, request] of requests.entries()) {
        const nonce = first + i;
        const entry = newEntry(nonce, request, fees, this.head);
        entry.onSigned = (hash, raw) => onSigned(i, hash, nonce, raw);
        const { raw, hash } = await this.sign(entry, fees);
        await entry.onSigned(hash, raw);
        // From here the nonce is taken: whatever the broadcast answers, the transaction is tracked.
        this.next = nonce + 1;
        Object.assign(entry, { raw, hashes: [hash] });
        this.inflight.set(nonce, entry);
        try {
          await this.broadcast(raw, entry);
        } catch (e) {
          // The node refused it for good: the nonce goes back (it is the last handed out).
          this.inflight.delete(nonce);
          this.next = nonce;
          throw e;
        }
        out.push({ hash, nonce });
      }
      return out;
    });
  }

  wait(nonce: number, what: string): Promise<TransactionReceipt> {
    const done = this.finals.receipt(nonce);
    if (done) return Promise.resolve(done);
    const e = this.inflight.get(nonce);
    if (!e)
      return Promise.reject(new EngineError("UNKNOWN_NONCE", `${what}: nonce ${nonce} was not sent by this engine`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const message = `${what}: nonce ${nonce} not final within ${this.opts.waitTimeoutMs} ms (hashes ${e.hashes.join(", ")}); it stays in flight`;
        reject(new EngineError("TX_TIMEOUT", message));
      }, this.opts.waitTimeoutMs);
      timer.unref();
      const done =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          f(v);
        };
      e.waiters.push({ resolve: done(resolve), reject: done(reject) });
    });
  }

  async settleNonce(nonce: number, resume?: SignedTx): Promise<void> {
    await this.start();
    if (resume && (nonce >= this.next || this.inflight.get(nonce)?.raw === null))
      await this.serial(() => adopt(this.lane, nonce, resume));
    if (nonce >= this.next) return;
    while (this.latestNonce <= nonce && !this.stopped) await this.nextTick();
  }

  /** Resolves when the balance is at least the threshold; meanwhile the engine is paused (funds.ts). */
  whenFunded(): Promise<void> {
    return untilFunded(this.provider, this.from, this.opts, {
      paused: () => this.paused,
      setPaused: (p) => this.setPaused(p),
      giveUp: () => this.stopped || this.halting,
    });
  }

  private async setPaused(p: EnginePause | null): Promise<void> {
    this.paused = p;
    if (p) this.opts.logger.warn({ code: p.code }, p.message);
    else this.opts.logger.info("engine: executor funded again, tasks resume");
    await this.opts.onPause?.(p);
  }

  private sign(e: InFlight, fees: Fees): Promise<{ raw: string; hash: string }> {
    return signType2(this.wallet, e, fees, this.from, this.opts.chainId);
  }

  /** Sends a signed transaction (send.ts); a price refusal marks `e` to be repriced at the next look. */
  private async broadcast(raw: string, e?: InFlight): Promise<void> {
    if ((await sendRaw(this.provider, raw, this.from)) === "sent") return;
    this.opts.logger.info({ nonce: e?.nonce }, "engine: the node refused the price; repriced at the next look");
    if (e) e.repriceNow = true;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.lock.then(fn, fn);
    this.lock = p.catch(() => undefined);
    return p;
  }

  private nextTick(): Promise<void> {
    return new Promise((r) => this.tickWaiters.push(r));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      detached(
        async () => {
          try {
            await this.tick();
          } catch (e) {
            this.opts.logger.warn({ err: e }, "engine: chain check failed; retried next block");
          }
          this.tickWaiters.splice(0).forEach((w) => w());
          this.schedule();
        },
        (e) => this.opts.logger.error({ err: e }, "engine: chain checks stopped"),
      ),
      this.opts.pollMs,
    );
    this.timer.unref();
  }

  private nonceAt(tag: "latest" | "pending"): Promise<number> {
    return this.provider.send("eth_getTransactionCount", [this.from, tag]).then((v: string) => Number(BigInt(v)));
  }

  private blockNumber(): Promise<number> {
    return this.provider.send("eth_blockNumber", []).then((v: string) => Number(BigInt(v)));
  }

  /** One look at the chain: receipts, depth, reorgs, drops, replacements. */
  private async tick(): Promise<void> {
    // Only what was in flight before the chain was read: a transaction sent meanwhile is judged next time.
    const entries = [...this.inflight.values()].sort((a, b) => a.nonce - b.nonce);
    const [head, latest, pending] = await Promise.all([
      this.blockNumber(),
      this.nonceAt("latest"),
      this.nonceAt("pending"),
    ]);
    [this.head, this.latestNonce] = [head, latest];
    this.finals.forget(head);
    if (await this.finals.reorged(this.provider, latest)) await this.reconcile(latest, head);
    await Promise.all(entries.map((e) => this.look(e, head, latest, pending)));
  }

  /**
   * A reorg deeper than `confirmations` took final transactions off the chain: their nonces are free again and every
   * later nonce waits on them. Each goes back in flight with the signed bytes it was mined with, sent again as they
   * were (the same hash, so a contract it created comes back at the same address); a nonce whose bytes are no longer
   * kept is filled with an empty transaction so no later nonce waits behind a gap. Bounded by
   * RECONCILE_PER_LOOK (finals.ts) nonces per look.
   */
  private async reconcile(latest: number, head: number): Promise<void> {
    const event: ReorgEvent = { fromNonce: latest, toNonce: this.finals.top, resent: [], filled: [], hashes: [] };
    const lost = this.finals.takeBack(latest, head, this.inflight);
    if (lost.length === 0) return;
    for (const e of lost) this.inflight.set(e.nonce, e);
    for (const e of lost) {
      if (e.raw) {
        event.resent.push(e.nonce);
        await this.broadcast(e.raw, e).catch((err) =>
          this.opts.logger.warn({ err, nonce: e.nonce }, "engine: a transaction sent again after a reorg was refused"),
        );
      } else {
        event.filled.push(e.nonce);
        await this.fill(e);
      }
      event.hashes.push(e.hashes.at(-1)!);
    }
    // Their replacement clock starts now: the head read before the reorg's new blocks came in
    // (a look during the reorg) would replace these bytes at the next look instead of waiting.
    const sentAt = await this.blockNumber().catch(() => head);
    for (const e of lost) e.sentAtBlock = Math.max(e.sentAtBlock, sentAt);
    this.opts.logger.warn(
      { from: latest, to: this.finals.top, resent: event.resent.length, filled: event.filled.length },
      "engine: a reorg removed final transactions; they are sent again",
    );
    this.emit("reorged", event);
  }

  private async look(e: InFlight, head: number, latest: number, pending: number): Promise<void> {
    if (e.nonce < latest) {
      e.mined = await this.receiptOf(e);
      if (!e.mined) {
        // Taken by a transaction this engine did not sign (another holder of the key), once
        // several looks agree: a reorg between reading the nonce and the receipt looks the same.
        if (++e.takenLooks < TAKEN_LOOKS) return;
        this.inflight.delete(e.nonce);
        if (e.request)
          this.fail(
            e,
            new EngineError(
              "NONCE_TAKEN",
              `nonce ${e.nonce} of ${this.from} was taken by a transaction the engine did not send`,
            ),
          );
        return;
      }
      e.takenLooks = 0;
      if (head - e.mined.blockNumber + 1 < this.opts.confirmations) return;
      this.inflight.delete(e.nonce);
      this.finals.add(e, this.head);
      const final: FinalEvent = {
        nonce: e.nonce,
        hash: e.mined.hash,
        blockNumber: e.mined.blockNumber,
        versions: e.hashes.length,
      };
      this.emit("final", final);
      for (const w of e.waiters) w.resolve(e.mined);
      return;
    }
    e.takenLooks = 0;
    if (e.mined) {
      this.opts.logger.warn(
        { nonce: e.nonce, hash: e.mined.hash },
        "engine: a reorg removed a receipt; the transaction is pending again",
      );
      e.mined = null;
    }
    if (!e.raw) {
      // Pending from before the start and forgotten by the node: filled so no later nonce waits on it.
      if (pending <= e.nonce) await this.fill(e);
      return;
    }
    if (e.repriceNow || head >= e.sentAtBlock + this.opts.replaceAfterBlocks) await this.replace(e, head);
    else if (pending <= e.nonce) await this.broadcast(e.raw, e).catch(() => undefined);
  }

  /** The receipt of whichever of the entry's hashes took its nonce (newest first). */
  private async receiptOf(e: InFlight): Promise<TransactionReceipt | null> {
    if (e.hashes.length === 0) return null;
    const receipts = await Promise.all([...e.hashes].reverse().map((h) => this.provider.getTransactionReceipt(h)));
    return receipts.find((r) => r !== null) ?? null;
  }

  private async replace(e: InFlight, head: number): Promise<void> {
    e.repriceNow = false;
    // Mined since the chain was read: nothing to replace.
    if (await this.provider.getTransactionReceipt(e.hashes.at(-1)!)) return;
    const fees = await this.fees.bump(e.fees!);
    const deadlineBlock = e.sentAtBlock + this.opts.replaceAfterBlocks;
    if (!fees) {
      // The caps leave no room for a 10% raise: keep waiting, re-sending what there is.
      this.opts.logger.warn(
        { nonce: e.nonce, caps: String(this.opts.caps.maxFeePerGas) },
        "engine: fee cap reached; the transaction waits for lower fees",
      );
      e.sentAtBlock = head;
      await this.broadcast(e.raw!, e).catch(() => undefined);
      return;
    }
    const { raw, hash } = await this.sign(e, fees);
    await e.onSigned(hash, raw);
    Object.assign(e, { raw, fees, sentAtBlock: head });
    e.hashes.push(hash);
    await this.broadcast(raw, e).catch((err) =>
      this.opts.logger.warn({ err, nonce: e.nonce }, "engine: replacement refused"),
    );
    // Emitted once the node has been offered the replacement, so a listener that reacts (a test
    // mining the next block, say) never races the send.
    const event: ReplacementEvent = { nonce: e.nonce, deadlineBlock, hash, fees };
    this.emit("replaced", event);
    this.opts.logger.info(
      { nonce: e.nonce, hash, version: e.hashes.length },
      "engine: replaced a transaction not mined in time",
    );
  }

  /** Takes a forgotten nonce with an empty transaction to the executor itself. */
  private async fill(e: InFlight): Promise<void> {
    e.request = { to: this.from, value: 0n, gasLimit: 21_000n };
    e.fees = await this.fees.market();
    const { raw, hash } = await this.sign(e, e.fees);
    Object.assign(e, { raw, hashes: [hash], sentAtBlock: this.head });
    this.opts.logger.warn({ nonce: e.nonce, hash }, "engine: filled a nonce dropped before the start");
    await this.broadcast(raw, e).catch(() => undefined);
  }

  private fail(e: InFlight, err: unknown): void {
    for (const w of e.waiters) w.reject(err);
  }
}
