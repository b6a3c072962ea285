import { Wallet } from "ethers";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { DEFAULT_ENGINE } from "../config/env.js";
import { rpcProvider } from "../chain/rpc.js";
import { TxEngine } from "./engine.js";
import { savePause } from "./status.js";

/**
 * The transaction engines of one worker, one per chain, made on first use. Only the worker
 * holding a chain's executor lease sends there, so one engine owns the key's nonces.
 */
export class Engines {
  private readonly byChain = new Map<string, TxEngine>();
  private readonly exclusive = new Map<string, Promise<unknown>>();

  constructor(private readonly ctx: Ctx) {}

  get(chainId: string): TxEngine {
    let engine = this.byChain.get(chainId);
    if (engine) return engine;
    const chain = this.ctx.chains.get(chainId).config;
    const key = this.ctx.config.executorKey(chain.chainId);
    if (!key) throw new ApiError("INTERNAL", `no executor key for chain ${chainId}: set EXECUTOR_PRIVATE_KEY`);
    const provider = rpcProvider(chain, this.ctx.config.rpcTimeoutMs, { batchMaxCount: 100, batchStallTime: 2 });
    const wallet = new Wallet(key, provider);
    const e = chain.engine ?? DEFAULT_ENGINE;
    engine = new TxEngine(wallet, provider, {
      chainId: chain.chainId,
      caps: { maxFeePerGas: BigInt(e.maxFeePerGas), maxPriorityFeePerGas: BigInt(e.maxPriorityFeePerGas) },
      replaceAfterBlocks: e.replaceAfterBlocks,
      confirmations: e.confirmations,
      minBalance: BigInt(e.minBalance),
      // A tenth of a block: a receipt is seen soon after its block, at three small calls per look.
      pollMs: Math.max(50, Math.min(1000, Math.floor(chain.blockTimeMs / 10))),
      waitTimeoutMs: Math.max(60_000, (e.replaceAfterBlocks + e.confirmations) * 30 * chain.blockTimeMs),
      logger: this.ctx.logger.child({ component: "tx-engine", chainId }),
      onPause: (p) => savePause(this.ctx.db, chainId, wallet.address, p),
    });
    this.byChain.set(chainId, engine);
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
    for (const engine of this.byChain.values()) engine.halting = true;
  }

  async stop(): Promise<void> {
    for (const [chainId, engine] of this.byChain) {
      engine.stop();
      // A pause must not outlive the worker that watched it.
      if (engine.paused) await savePause(this.ctx.db, chainId, engine.from, null).catch(() => undefined);
    }
    this.byChain.clear();
  }
}
