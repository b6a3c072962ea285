import { NonceManager, type TransactionReceipt, type TransactionRequest } from "ethers";
import type { Ctx } from "../context.js";
import { executorSigner } from "../onboarding/runner.js";

/**
 * How the desk sends with the executor: one call per transaction, resolving with its mined
 * receipt. The transaction engine (nonces shared with onboarding, fee bumping, failover) is
 * meant to replace this implementation behind the same interface.
 */
export interface ExecutorSender {
  /** The executor's address on the chain, or undefined when this server has no key for it. */
  address(chainId: string): string | undefined;
  send(chainId: string, tx: TransactionRequest): Promise<TransactionReceipt>;
}

/** Sends through the executor's wallet; a NonceManager lets one tick's batches share a block. */
export function walletSender(ctx: Ctx): ExecutorSender {
  const signers = new Map<string, NonceManager>();
  const signer = (chainId: string) => {
    let s = signers.get(chainId);
    if (!s) signers.set(chainId, (s = new NonceManager(executorSigner(ctx, chainId))));
    return s;
  };
  return {
    address: (chainId) => {
      if (!ctx.config.executorKey(ctx.chains.get(chainId).config.chainId)) return undefined;
      return (signer(chainId).signer as unknown as { address: string }).address;
    },
    async send(chainId, tx) {
      const s = signer(chainId);
      try {
        const sent = await s.sendTransaction(tx);
        const receipt = await sent.wait();
        if (!receipt) throw new Error(`transaction ${sent.hash} was dropped`);
        return receipt;
      } catch (e) {
        s.reset(); // the next send asks the chain for the nonce again
        throw e;
      }
    },
  };
}
