import { createHash } from "node:crypto";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { DEFAULT_ENGINE } from "../config/env.js";
import { rpcProvider } from "../chain/rpc.js";
import { TxEngine } from "./engine.js";
import { savePause } from "./status.js";
import { dbKeptStore } from "./kept.js";
import type { ReorgEvent } from "./inflight.js";
import { unwatchEngine, watchEngine } from "../metrics/index.js";

/** The lane (index into the chain's executor keys) of a task: its id hashed, stable across runs. */
export function laneIndex(taskId: string, lanes: number): number {
  return createHash("sha256").update(taskId).digest().readUInt32BE(0) % lanes;
}

/**
 * The transaction engines of one worker: per chain one lane per executor key, made on first
 * use. Only the worker holding a chain's executor lease sends there, so one engine owns each
 * key's nonces.
 */
export class Engines {
  private readonly byChain = new Map<string, TxEngine[]>();
  private readonly exclusive = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ctx: Ctx,
    /** Told when an engine took back final transactions a deep reorg removed (the service re-checks programs). */
    private readonly onReorged?: (chainId: string, engine: TxEngine, event: ReorgEvent) => Promise<void>,
  ) {}

  /** The chain's first lane: the executor key (EXECUTOR_ROLE holder, ProgramFactory admin). */
  get(chainId: string): TxEngine {
    return this.lanes(chainId)[0];
  }

  /**
   * The lane a task sends through, the same on every run of the task (a resumed deploy must
   * find its own program): its id hashed over the chain's executor keys. Changing the key list
   * while tasks are in flight moves them to another lane (docs/architecture.md#transaction-engine).
   */
  laneOf(chainId: string, taskId: string): { engine: TxEngine; lane: number } {
    const lanes = this.lanes(chainId);
    const lane = laneIndex(taskId, lanes.length);
    return { engine: lanes[lane], lane };
  }

  /** Every lane of a chain (one engine per executor key, each its own nonces and balance watch). */
  lanes(chainId: string): TxEngine[] {
    let lanes = this.byChain.get(chainId);
    if (lanes) return lanes;
    const chain = this.ctx.chains.get(chainId).config;
    const keys = this.ctx.signers.keys(chain.chainId);
    if (keys.length === 0)
      throw new ApiError("INTERNAL", `no executor key for chain ${chainId}: set EXECUTOR_PRIVATE_KEY`);
    lanes = keys.map((_, lane) => this.engine(chainId, lane));
    this.byChain.set(chainId, lanes);
    return lanes;
  }

  private engine(chainId: string, lane: number): TxEngine {
    const chain = this.ctx.chains.get(chainId).config;
    const provider = rpcProvider(chain, this.ctx.config.rpcTimeoutMs, { batchMaxCount: 100, batchStallTime: 2 });
    // Every signature goes through the signer seam: normalized and checked (@points/signers).
    const wallet = this.ctx.signers.wallet(chain.chainId, lane, provider);
    const e = chain.engine ?? DEFAULT_ENGINE;
    const engine = new TxEngine(wallet, provider, {
      chainId: chain.chainId,
      caps: { maxFeePerGas: BigInt(e.maxFeePerGas), maxPriorityFeePerGas: BigInt(e.maxPriorityFeePerGas) },
      replaceAfterBlocks: e.replaceAfterBlocks,
      confirmations: e.confirmations,
      minBalance: BigInt(e.minBalance),
      // A tenth of a block: a receipt is seen soon after its block, at three small calls per look.
      pollMs: Math.max(50, Math.min(1000, Math.floor(chain.blockTimeMs / 10))),
      waitTimeoutMs: Math.max(60_000, (e.replaceAfterBlocks + e.confirmations) * 30 * chain.blockTimeMs),
      logger: this.ctx.logger.child({ component: "tx-engine", chainId, lane }),
      onPause: (p) => savePause(this.ctx.db, chainId, wallet.address, p),
      kept: dbKeptStore(this.ctx.db, chainId, wallet.address),
    });
    // Final transactions a deep reorg removed are sent again by the engine; programs whose contracts stay gone are
    // unregistered (docs/architecture.md#nodes-and-networks).
    engine.on("reorged", (event: ReorgEvent) => {
      this.onReorged?.(chainId, engine, event).catch((err) =>
        this.ctx.logger.error({ err, chainId }, "could not check the chain's programs after a reorg"),
      );
    });
    watchEngine(chainId, engine, () => provider.getBalance(wallet.address));
    return engine;
  }

  /** Runs `fn` alone among the callers of the same chain (the first release of a chain). */
  alone<T>(chainId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.exclusive.get(chainId) ?? Promise.resolve();
    const p = before.then(fn, fn);
    this.exclusive.set(
      chainId,
      p.catch(() => undefined),
    );
    return p;
  }

  /** Concurrent onboarding tasks a chain runs. */
  concurrency(chainId: string): number {
    return (this.ctx.chains.get(chainId).config.engine ?? DEFAULT_ENGINE).concurrency;
  }

  /** Tasks waiting for funds stop waiting (the worker is stopping; they resume elsewhere). */
  halt(): void {
    for (const lanes of this.byChain.values()) for (const engine of lanes) engine.halting = true;
  }

  async stop(): Promise<void> {
    for (const [chainId, lanes] of this.byChain) {
      for (const engine of lanes) {
        engine.stop();
        unwatchEngine(chainId, engine.from);
        // A pause must not outlive the worker that watched it.
        if (engine.paused) await savePause(this.ctx.db, chainId, engine.from, null).catch(() => undefined);
      }
    }
    this.byChain.clear();
  }
}
