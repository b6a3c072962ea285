import type { Logger } from "pino";
import type { TaskRepo } from "../../core/onboarding/tasks.js";
import type { ExecutorSender } from "./sender.js";

/**
 * The desk's hold on each chain's executor lease (the lease onboarding's worker takes, under the
 * worker's id): the desk acts for a chain only while this process holds it, so two instances
 * never both send desk transactions with the executor's key. A held lease is renewed once a
 * third of it has gone; one not held is asked for every `pollMs` when that is sooner (a lease
 * another instance gave back on shutdown is taken up within a poll, not a third of the lease
 * later), so an idle holder writes once per third of the lease, not once per poll. A renewal that
 * fails or is refused drops the hold at once, and a hold also ends by the clock where the last
 * renewal's lease would.
 */
export class ExecutorLeaseHold {
  private readonly until = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly tasks: TaskRepo,
    /** The onboarding worker's id: one owner per process for the worker and the desk alike. */
    private readonly owner: string,
    private readonly chainIds: readonly string[],
    private readonly leaseMs: number,
    private readonly logger: Logger,
    private readonly pollMs = Infinity,
  ) {}

  /** Takes (or renews) the leases now; resolves once the first look is done. */
  start(): Promise<void> {
    this.timer ??= setInterval(() => void this.renew(), this.tickMs);
    return this.renew();
  }

  /** Stops renewing (the worker gives the leases back when it stops). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing;
    this.until.clear();
  }

  /** How often the hold looks: every poll, and at least every third of the lease. */
  private get tickMs(): number {
    return Math.max(50, Math.min(this.pollMs, Math.floor(this.leaseMs / 3)));
  }

  holds(chainId: string): boolean {
    return (this.until.get(chainId) ?? 0) > Date.now();
  }

  private renew(): Promise<void> {
    this.renewing = this.renewing.then(async () => {
      for (const chainId of this.chainIds) {
        const asked = Date.now();
        // Held, and renewed less than a third of the lease ago (half a tick early counts, so a
        // timer that fires a little soon does not push the renewal a whole tick later): nothing
        // to write yet.
        const renewedAgo = asked - ((this.until.get(chainId) ?? 0) - this.leaseMs);
        if (this.holds(chainId) && renewedAgo < this.leaseMs / 3 - this.tickMs / 2) continue;
        try {
          if (await this.tasks.leaseExecutor(chainId, this.owner, this.leaseMs))
            this.until.set(chainId, asked + this.leaseMs);
          else this.until.delete(chainId);
        } catch (e) {
          this.until.delete(chainId);
          this.logger.warn({ err: e, chainId }, "redemption desk could not renew the executor lease");
        }
      }
    });
    return this.renewing;
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
