import type { JsonRpcProvider } from "ethers";
import { EngineError } from "./errors.js";

/** Why the engine does not send (the task view and the operator's status show it). */
export interface EnginePause {
  code: "EXECUTOR_LOW_BALANCE";
  message: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves when `from` holds at least `minBalance` wei (at once when it is 0: never checked). Below it the engine is
 * paused with EXECUTOR_LOW_BALANCE, which the task view shows, and the balance is read again every `pollMs`; it
 * throws ENGINE_STOPPED when the worker stops meanwhile (the next worker resumes the task).
 */
export async function untilFunded(
  provider: JsonRpcProvider,
  from: string,
  opts: { minBalance: bigint; pollMs: number; chainId: number },
  engine: {
    paused: () => EnginePause | null;
    setPaused: (p: EnginePause | null) => Promise<void>;
    giveUp: () => boolean;
  },
): Promise<void> {
  if (opts.minBalance === 0n) return;
  for (;;) {
    const balance = await provider.getBalance(from);
    if (balance >= opts.minBalance) {
      if (engine.paused()) await engine.setPaused(null);
      return;
    }
    if (!engine.paused()) {
      await engine.setPaused({
        code: "EXECUTOR_LOW_BALANCE",
        message: `executor ${from} holds ${balance} wei, below the threshold of ${opts.minBalance} wei on chain ${opts.chainId}; tasks resume once it is funded`,
      });
    }
    if (engine.giveUp())
      throw new EngineError("ENGINE_STOPPED", "the worker stopped while the executor waited for funds");
    await sleep(opts.pollMs);
  }
}
