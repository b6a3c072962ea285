import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import type { ChainConfig } from "../../core/config/env.js";
import type { Db } from "../../core/db/db.js";
import { webhooksOnLedgerEvent } from "../../core/webhooks/store.js";
import { metricsOnLedgerEvent } from "../../core/metrics/index.js";
import { rpcPool } from "../../core/chain/rpcPool.js";
import { LedgerRpc, type RetryOptions, type RpcBlock, type RpcHeader, type RpcLog } from "../../core/ledger/rpc.js";
import { PassLoop, warnUndrained } from "../jobs/passLoop.js";
import {
  DEFAULT_MAX_REORG_DEPTH,
  LeaseLost,
  LedgerStore,
  type BlockRef,
  type BlockRow,
  type FollowedProgram,
  type RangeCommit,
} from "../../core/ledger/store.js";
import { inSpan } from "../../core/tracing/spans.js";
import { EAGER, LedgerPacing, NO_HEAD, type StepMode } from "./pacing.js";
import { HeldChains } from "./held.js";
import { eventRowsOf, MovedUnderfoot, num, rowOf } from "./rows.js";
import { announcedPrograms, watchedAddresses, watchOf } from "./watch.js";
import { QuietTip, quietRange } from "./tip.js";

export interface LedgerOptions {
  /** Blocks below the head before a block is indexed (0: index the head). */
  confirmations: number;
  /** A reorg deeper than this halts the indexer instead of rolling back (default 64). */
  maxReorgDepth?: number;
  /** Most blocks one eth_getLogs asks for. */
  range: number;
  /** How often an idle indexer looks at the chain's head. */
  pollMs: number;
  /** How long a chain stays this instance's without renewal. */
  leaseMs: number;
  rpcTimeoutMs: number;
  retry: RetryOptions;
}

/** Addresses per eth_getLogs filter (hosted RPCs cap the list). */
const ADDRESSES_PER_QUERY = 200;
/** Headers kept past the confirmations in a chain's quiet tip: a caught-up cursor is a few blocks behind. */
const TIP_BLOCKS = 64;
/** Stored blocks checked per round when looking for a reorg's common ancestor. */
const ANCESTOR_BATCH = 16;

/**
 * The chain lost more indexed blocks than LEDGER_MAX_REORG_DEPTH: more likely another chain or
 * a broken node behind the URL than a real reorg. Nothing is deleted; the indexer tries again
 * each pass (and resumes if the chain comes back) until an operator looks.
 */
export class LedgerReorgTooDeep extends Error {
  readonly code = "LEDGER_REORG_TOO_DEEP";
  constructor(
    readonly chainId: string,
    readonly depth: number,
    readonly max: number,
  ) {
    super(
      `chain ${chainId}: a reorg of ${depth} blocks is deeper than LEDGER_MAX_REORG_DEPTH (${max}); the ledger is halted, nothing was deleted`,
    );
  }
}

/**
 * The program ledger's indexer (docs/architecture.md#the-ledger): follows every registered
 * program, and every program a followed ProgramFactory announces, on every configured chain;
 * writes each log once, decoded, with the chain's cursor in the same transaction; rolls back
 * and replays on a reorg. Per chain one instance at a time holds the lease.
 */
export class LedgerIndexer {
  readonly id = `ledger-${randomUUID()}`;
  readonly store: LedgerStore;
  private readonly rpcs = new Map<string, LedgerRpc>();
  private readonly abort = new AbortController();
  private readonly loop: PassLoop<boolean>;
  private readonly pacing: LedgerPacing;
  /** Per chain, what the steps keep in memory while the lease is held (held.ts). */
  private readonly held = new HeldChains();
  /** Chains whose pending state (migration 081) was found built: only a migration sets it again. */
  private readonly stateBuilt = new Set<string>();

  constructor(
    db: Db,
    private readonly chains: ChainConfig[],
    private readonly logger: Logger,
    private readonly opts: LedgerOptions,
  ) {
    // Webhooks hear the ledger's reorgs in the same transaction, in every process that indexes;
    // metrics only count, after the commit. Wake-ups subscribe through `store.subscribe`.
    this.store = new LedgerStore(db, {
      logger,
      listeners: [webhooksOnLedgerEvent],
      maxReorgDepth: opts.maxReorgDepth ?? DEFAULT_MAX_REORG_DEPTH,
    });
    this.store.subscribe(metricsOnLedgerEvent);
    // Every retried RPC call listens to the stop signal while it runs.
    setMaxListeners(0, this.abort.signal);
    for (const c of chains) {
      this.rpcs.set(String(c.chainId), new LedgerRpc(c, opts.rpcTimeoutMs, opts.retry, logger, this.abort.signal));
    }
    const blockTimes = new Map(chains.map((c) => [String(c.chainId), c.blockTimeMs]));
    this.pacing = new LedgerPacing(opts.pollMs, opts.leaseMs, blockTimes);
    const chainIds = [...blockTimes.keys()];
    this.loop = new PassLoop({
      job: "ledger",
      pass: () => this.pass(),
      // Idle: the next pass when the next block may be there (pacing.ts, waitMs).
      waitMs: (worked) => (worked ? 0 : worked === false ? this.pacing.waitMs(chainIds) : opts.pollMs),
      onError: (e) => this.logger.error({ err: e }, "ledger pass failed"),
      onUndrained: warnUndrained(this.logger, "ledger"),
    });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** The chain's RPC as the indexer uses it (tests count and break its calls). */
  rpc(chainId: string): LedgerRpc {
    const rpc = this.rpcs.get(chainId);
    if (!rpc) throw new Error(`chain ${chainId} is not configured`);
    return rpc;
  }

  private chainOf(chainId: string): ChainConfig {
    return this.chains.find((c) => String(c.chainId) === chainId)!;
  }

  start(): void {
    this.loop.start();
  }

  /** `drainMs` bounds the wait for the pass in flight (its commits stay fenced by the lease). */
  async stop(drainMs?: number): Promise<void> {
    // Aborted first: an RPC call in flight (retrying a node that does not answer) ends now.
    this.abort.abort(new Error("ledger indexer stopped"));
    await this.loop.stop(drainMs);
    await Promise.all(this.chains.map((c) => this.store.release(String(c.chainId), this.id).catch(() => undefined)));
    for (const rpc of this.rpcs.values()) rpc.destroy();
  }

  /** One pass over the chains; true when a step indexed something (the next pass runs at once). */
  private async pass(): Promise<boolean> {
    let worked = false;
    for (const c of this.chains) {
      if (this.stopped) break;
      const chainId = String(c.chainId);
      try {
        // The head the quiet check read is the step's head too: one header request per pass.
        let head: number | undefined;
        const readHead = async () => (head = await this.readHead(chainId));
        if (await this.pacing.stillQuiet(chainId, readHead)) continue;
        const stepped = await this.step(chainId, this.pacing.passMode(chainId), head);
        if (stepped) this.pacing.busy(chainId);
        worked = stepped || worked;
      } catch (e) {
        this.forget(chainId);
        if (this.stopped) break;
        if (e instanceof LeaseLost) this.logger.warn({ chainId: c.chainId, err: e.message }, "ledger lease lost");
        else if (e instanceof LedgerReorgTooDeep || (e as { code?: string }).code === "CHAIN_MISMATCH")
          this.logger.error(
            { chainId: c.chainId, code: (e as { code: string }).code, err: (e as Error).message },
            "ledger halted",
          );
        else this.logger.error({ chainId: c.chainId, err: e }, "ledger indexing step failed");
      }
    }
    return worked;
  }

  /**
   * The chain's newest header: its number is the head; a header whose bloom shows no followed
   * contract joins the chain's quiet tip (tip.ts), so the blocks it covers need no more requests.
   */
  private async readHead(chainId: string): Promise<number> {
    const latest = await this.rpc(chainId).latest();
    const head = num(latest.number);
    this.pacing.sawHead(chainId, head, latest.hash);
    this.sawTip(chainId, latest);
    return head;
  }

  private sawTip(chainId: string, latest: RpcHeader): void {
    const held = this.held.of(chainId);
    if (!held.programs || held.programs.length === 0) return;
    const { addresses, key } = watchedAddresses(held.programs);
    const trustBloom = this.chainOf(chainId).logsBloom !== false;
    (held.tip ??= new QuietTip(this.opts.confirmations + TIP_BLOCKS, trustBloom)).saw(latest, addresses, key);
  }

  /** The lease was refused, or a step failed: the next step takes the lease and reads everything afresh. */
  private forget(chainId: string): void {
    this.pacing.reset(chainId);
    this.held.drop(chainId);
  }

  /** Steps until the chain is indexed up to its head less the confirmations (tests, CLI). */
  async catchUp(chainId: string): Promise<void> {
    while (await this.step(chainId)) {
      /* next range */
    }
  }

  /**
   * One unit of work on a chain: a reorg rolled back, a lagging program caught up by one
   * range, or the chain's cursor moved by one range. False when there was nothing to do
   * (or another instance holds the chain). `knownHead`: the head this pass already read; a head
   * a moment old only means the step indexes up to it, and the next pass reads a new one.
   */
  async step(chainId: string, mode: StepMode = EAGER, knownHead?: number): Promise<boolean> {
    try {
      return await this.stepHeld(chainId, mode, knownHead);
    } catch (e) {
      // A write refused or a read that failed: what is kept may be stale; the next step reads it again.
      this.held.drop(chainId);
      throw e;
    }
  }

  private async stepHeld(chainId: string, mode: StepMode, knownHead?: number): Promise<boolean> {
    const { store, opts } = this;
    const now = Date.now();
    if (mode.lease) {
      // Renewed late (half the lease gone), it may have lapsed: another instance may have written since.
      if (this.pacing.leaseLapsing(chainId, now)) this.held.drop(chainId);
      if (!(await store.lease(chainId, this.id, opts.leaseMs))) {
        this.forget(chainId);
        return false;
      }
      this.pacing.leased(chainId, now);
    }
    const held = this.held.of(chainId);
    if (mode.registry) {
      if (!this.stateBuilt.has(chainId)) {
        if (await store.buildPendingState(chainId, this.id, opts.leaseMs)) return true;
        this.stateBuilt.add(chainId);
      }
      if ((await store.followRegistered(chainId)) > 0) held.programs = undefined;
      this.pacing.registryChecked(chainId, now);
    }
    const programs = (held.programs ??= await store.programs(chainId));
    // Nothing to follow: only a registration changes that, picked up by the next full step.
    if (programs.length === 0) return this.pacing.quietAt(chainId, NO_HEAD);
    const rpc = this.rpc(chainId);
    // Halted on another chain: ask again now rather than at the pool's next periodic check.
    const pool = rpcPool(this.chainOf(chainId), this.opts.rpcTimeoutMs);
    if (pool.refused()) await pool.assertServes();
    const head = knownHead ?? (await this.readHead(chainId));
    const safe = head - opts.confirmations;
    let cursor = held.cursor ?? (await store.cursor(chainId));
    if (!cursor) {
      const start = Math.max(0, Math.min(...programs.map((p) => p.fromBlock)) - 1);
      if (start > safe) return this.pacing.quietAt(chainId, head);
      cursor = await store.initCursor(chainId, rowOf(await this.mustBlock(rpc, start)));
    }
    held.cursor = cursor;
    const lagging = programs.find((p) => p.syncedTo < cursor.number);
    const to = Math.min(safe, cursor.number + opts.range);
    // Blocks the quiet tip covers hold no log of ours and are one chain with the cursor's: nothing to read.
    const quietEnd =
      mode.deferEmpty && !lagging ? held.tip?.through(cursor, to, watchedAddresses(programs).key) : undefined;
    if (quietEnd) {
      if (to === safe && this.pacing.mayWait(chainId)) return this.pacing.quietAt(chainId, head);
      await this.commitQuiet(chainId, programs, cursor, quietEnd);
      return to === safe ? this.pacing.quietAt(chainId, head) : true;
    }
    if (mode.deferEmpty && (await this.nothingSince(chainId, rpc, programs, cursor.number, safe)))
      return this.pacing.quietAt(chainId, head);
    // The kept cursor's hash is compared with the chain's on every step that may commit. The next
    // range's end header is asked beside it, one HTTP request for both (rpc.ts batches a tick's calls).
    const endRead = !lagging && cursor.number < safe ? rpc.block(to) : undefined;
    endRead?.catch(() => undefined); // Not awaited when the step rolls back; the range reads it again.
    const atCursor = cursor.number <= head ? await rpc.block(cursor.number) : null;
    if (!atCursor || atCursor.hash !== cursor.hash) {
      await this.rollback(chainId, rpc, cursor, programs);
      this.held.drop(chainId);
      return true;
    }
    if (lagging) {
      const from = lagging.syncedTo + 1;
      const to = Math.min(cursor.number, from + opts.range - 1);
      await this.indexRange(chainId, rpc, [lagging], from, to, null, programs, false);
      this.pacing.committed(chainId);
      return true;
    }
    if (!endRead) return this.pacing.quietAt(chainId, head);
    // Caught up with nothing new: an empty range waits for a later, longer one (pacing.ts, passMode).
    const mayWait = mode.deferEmpty && to === safe && this.pacing.mayWait(chainId);
    const range = [chainId, rpc, programs, cursor.number + 1, to, cursor, programs, mayWait, endRead] as const;
    if (!(await this.indexRange(...range))) return this.pacing.quietAt(chainId, head);
    this.pacing.committed(chainId);
    return true;
  }

  /**
   * Whether an idle pass may leave the blocks after the cursor for a later commit without reading a
   * header: every program caught up, the range reaches the head, a commit was made recently and
   * the last read found no log (pacing.ts, mayProbe), and one eth_getLogs finds nothing in it. A
   * reorg under the cursor is then seen by the next commit, at most `fullStepMs` later, or at once
   * by a range with a log.
   */
  private async nothingSince(
    chainId: string,
    rpc: LedgerRpc,
    programs: FollowedProgram[],
    cursor: number,
    safe: number,
  ): Promise<boolean> {
    if (cursor >= safe || cursor + this.opts.range < safe || !this.pacing.mayProbe(chainId)) return false;
    if (programs.some((p) => p.syncedTo < cursor)) return false;
    const logs = await this.logsOf(rpc, [...watchOf(programs, true).keys()], cursor + 1, safe);
    this.pacing.sawLogs(chainId, logs.length > 0);
    return logs.length === 0;
  }

  private async mustBlock(rpc: LedgerRpc, n: number, read = rpc.block(n)): Promise<RpcBlock> {
    const b = await read;
    if (!b) throw new MovedUnderfoot(`block ${n} is not on the chain`);
    return b;
  }

  private async logsOf(rpc: LedgerRpc, addresses: string[], from: number, to: number): Promise<RpcLog[]> {
    const parts: Promise<RpcLog[]>[] = [];
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_QUERY) {
      parts.push(rpc.getLogs(addresses.slice(i, i + ADDRESSES_PER_QUERY), from, to));
    }
    return (await Promise.all(parts)).flat();
  }

  /**
   * Reads [from, to] for `programs` (and, when the cursor moves, their ProgramFactories), takes
   * in the programs a ProgramFactory announced inside the range, and commits it all at once.
   */
  private indexRange(...range: Parameters<LedgerIndexer["readAndCommit"]>): Promise<boolean> {
    const [chainId, , programs, from, to] = range;
    // One span per range read (packages/api/README.md#traces), saying whether it was committed.
    const attributes = {
      "points.chain_id": chainId,
      "points.from_block": from,
      "points.to_block": to,
      "points.programs": programs.length,
    };
    return inSpan("ledger.range", attributes, async (span) => {
      const committed = await this.readAndCommit(...range);
      span.setAttribute("points.committed", committed);
      return committed;
    });
  }

  /**
   * Reads [from, to] and commits it; false, with nothing written, when the range holds no log
   * and `mayWait` (an empty range at the head, a commit made recently: pacing.ts).
   * `followed`: every program the chain's ledger follows, as the step read them.
   */
  private async readAndCommit(
    chainId: string,
    rpc: LedgerRpc,
    programs: FollowedProgram[],
    from: number,
    to: number,
    cursorFrom: BlockRef | null,
    followed: FollowedProgram[],
    mayWait: boolean,
    /** `to`'s header, when the step asked for it already. */
    endRead?: Promise<RpcBlock | null>,
  ): Promise<boolean> {
    const end = await this.mustBlock(rpc, to, endRead);
    const watch = watchOf(programs, cursorFrom !== null);
    const logs = await this.logsOf(rpc, [...watch.keys()], from, to);
    if (cursorFrom) this.pacing.sawLogs(chainId, logs.length > 0);
    if (mayWait && logs.length === 0) return false;

    const discovered = announcedPrograms(logs, watch, followed, to);
    if (discovered.length > 0) {
      const newWatch = watchOf(discovered, false);
      for (const [a, w] of newWatch) watch.set(a, w);
      const first = Math.min(...discovered.map((p) => p.fromBlock));
      logs.push(...(await this.logsOf(rpc, [...newWatch.keys()], first, to)));
    }

    // The range's end read again: a hash that changed between the reads means the chain
    // reorganised under us; read it again. Headers of the blocks holding a log are read only when
    // the node's logs lack blockTimestamp, and must carry the logs' block hashes.
    const numbers = logs.some((l) => l.blockTimestamp === undefined)
      ? [...new Set(logs.map((l) => num(l.blockNumber)))]
      : [];
    const [endAgain, ...headers] = await Promise.all([rpc.block(to), ...numbers.map((n) => rpc.block(n))]);
    if (endAgain?.hash !== end.hash) throw new MovedUnderfoot(`block ${to} changed while range ${from}-${to} was read`);
    const byNumber = new Map<number, RpcBlock>();
    headers.forEach((h, i) => {
      if (h) byNumber.set(numbers[i]!, h);
    });
    const events = eventRowsOf(logs, watch, byNumber);
    const blocks = new Map<number, BlockRow>(
      events.map((e) => [e.blockNumber, { number: e.blockNumber, hash: e.blockHash, time: e.blockTime }]),
    );
    blocks.set(to, rowOf(end));
    const commit: RangeCommit = {
      events,
      blocks: [...blocks.values()],
      discovered,
      programIds: programs.map((p) => p.programId),
      to: { number: to, hash: end.hash },
      cursorFrom,
    };
    // Emits `block` (and `finalized` when it advanced) to the store's listeners and subscribers.
    await this.store.commit(chainId, this.id, this.opts.leaseMs, commit);
    this.held.committed(chainId, commit);
    this.logger.debug({ chainId, from, to, events: events.length }, "ledger range indexed");
    return true;
  }

  /** Commits the blocks after `cursor` up to `end`, which the quiet tip covers: no log, nothing read. */
  private async commitQuiet(chainId: string, programs: FollowedProgram[], cursor: BlockRef, end: RpcHeader) {
    const commit = quietRange(programs, cursor, end);
    await this.store.commit(chainId, this.id, this.opts.leaseMs, commit);
    this.held.committed(chainId, commit);
    this.pacing.sawLogs(chainId, false);
    this.pacing.committed(chainId);
  }

  /**
   * Finds the newest indexed block the chain still has and rolls the ledger back to it. First
   * the endpoints are asked their chain id again: a node of another chain swapped in behind the
   * URL looks like a reorg of everything, and deleting the ledger for it would be wrong.
   */
  private rollback(chainId: string, rpc: LedgerRpc, cursor: BlockRef, programs: FollowedProgram[]): Promise<void> {
    const attributes = { "points.chain_id": chainId, "points.cursor_block": cursor.number };
    return inSpan("ledger.reorg", attributes, () => this.rollBackFrom(chainId, rpc, cursor, programs));
  }

  private async rollBackFrom(chainId: string, rpc: LedgerRpc, cursor: BlockRef, programs: FollowedProgram[]) {
    await rpcPool(this.chainOf(chainId), this.opts.rpcTimeoutMs).assertServes();
    let below = cursor.number;
    let ancestor: BlockRef | undefined;
    while (!ancestor) {
      const stored = await this.store.blocksBelow(chainId, below, ANCESTOR_BATCH);
      if (stored.length === 0) break;
      const onChain = await Promise.all(stored.map((b) => rpc.block(b.number)));
      ancestor = stored.find((b, i) => onChain[i]?.hash === b.hash);
      below = stored[stored.length - 1]!.number - 1;
    }
    if (!ancestor) {
      // Nothing indexed survives: start again before the earliest program.
      const start = Math.max(0, Math.min(...programs.map((p) => p.fromBlock)) - 1);
      ancestor = { number: start, hash: (await this.mustBlock(rpc, start)).hash };
    }
    // The depth the store's `finalized` block is measured by (../../core/ledger/events.ts).
    const max = this.opts.maxReorgDepth ?? DEFAULT_MAX_REORG_DEPTH;
    if (cursor.number - ancestor.number > max)
      throw new LedgerReorgTooDeep(chainId, cursor.number - ancestor.number, max);
    this.logger.warn({ chainId, from: cursor.number, to: ancestor.number }, "ledger: chain reorganised; rolling back");
    await this.store.rollback(chainId, this.id, this.opts.leaseMs, ancestor);
  }
}
