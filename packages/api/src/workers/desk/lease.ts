import type { Logger } from "pino";
import type { TaskRepo } from "../../core/onboarding/tasks.js";
import type { ExecutorSender } from "./sender.js";
import { LeaseHold } from "../jobs/leaseHold.js";

/**
 * The desk's hold on each chain's executor lease (the lease onboarding's worker takes, under the
 * worker's id), on the job runtime's `LeaseHold`: the desk acts for a chain only while this
 * process holds it, so two instances never both send desk transactions with the executor's key.
 */
export class ExecutorLeaseHold extends LeaseHold {
  constructor(
    tasks: Pick<TaskRepo, "leaseExecutor">,
    /** The onboarding worker's id: one owner per process for the worker and the desk alike. */
    owner: string,
    chainIds: readonly string[],
    leaseMs: number,
    logger: Logger,
    pollMs = Infinity,
  ) {
    super({
      keys: chainIds,
      take: (chainId) => tasks.leaseExecutor(chainId, owner, leaseMs),
      leaseMs,
      pollMs,
      onError: (e, chainId) => logger.warn({ err: e, chainId }, "redemption desk could not renew the executor lease"),
    });
  }
}

/** A desk transaction not sent: this process no longer holds the chain's executor lease. */
export class ExecutorLeaseNotHeld extends Error {
  readonly code = "EXECUTOR_LEASE_NOT_HELD";
  constructor(readonly chainId: string) {
    super(`chain ${chainId}: this process no longer holds the executor lease; nothing was sent`);
  }
}

/**
 * The sender as the desk sees it: no executor on a chain whose lease this process does not hold,
 * and no transaction signed there either. The hold is checked when a send starts and again right
 * before the engine signs it: a run that outlived its hold (a pass left behind by the shutdown's
 * bound, a renewal refused mid-run, a wait for funds) sends nothing (ExecutorLeaseNotHeld).
 */
export function leasedSender(sender: ExecutorSender, hold: ExecutorLeaseHold): ExecutorSender {
  return {
    address: (chainId) => (hold.holds(chainId) ? sender.address(chainId) : undefined),
    async send(chainId, tx, guard) {
      const held = () => {
        if (!hold.holds(chainId)) throw new ExecutorLeaseNotHeld(chainId);
        guard?.();
      };
      held();
      return sender.send(chainId, tx, held);
    },
  };
}
