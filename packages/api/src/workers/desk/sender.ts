import { type TransactionReceipt, type TransactionRequest } from "ethers";
import type { Ctx } from "../../core/context.js";
import type { Engines } from "../../core/engine/registry.js";
import { executorAddress } from "../../core/desk/executor.js";

/**
 * How the desk sends with the executor: one call per transaction, resolving with its final
 * receipt. It goes through the chain's transaction engine, the one owner of the executor's
 * nonces, so the desk's finalizations and onboarding's deploys never race for a nonce
 * (docs/architecture.md#transaction-engine).
 */
export interface ExecutorSender {
  /** The executor's address on the chain, or undefined when this server has no key for it. */
  address(chainId: string): string | undefined;
  /**
   * `guard` runs right before the transaction is signed (in the engine's turn, after any wait
   * for funds or for another send) and throws to send nothing.
   */
  send(chainId: string, tx: TransactionRequest, guard?: () => void): Promise<TransactionReceipt>;
}

/** Sends through the worker's engines: gas estimated from the executor, nonce and fees by the engine. */
export function engineSender(ctx: Ctx, engines: Engines): ExecutorSender {
  return {
    address: (chainId) => executorAddress(ctx, chainId),
    async send(chainId, tx, guard) {
      const engine = engines.get(chainId);
      const gasLimit =
        tx.gasLimit ?? (await ctx.chains.get(chainId).provider.estimateGas({ ...tx, from: engine.from }));
      const [sent] = await engine.sendBatch(
        1,
        async () => {
          guard?.();
          return [{ ...tx, gasLimit }];
        },
        () => undefined,
      );
      if (!sent) throw new Error("the engine sent no transaction for the redemption desk");
      return engine.wait(sent.nonce, "redemption desk");
    },
  };
}
