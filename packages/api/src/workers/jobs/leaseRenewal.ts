import { detached } from "../../core/detached.js";

/** The abort reason's message when a renewal was refused: the work is someone else's now. */
export const LEASE_LOST = "lease lost";
/** The abort reason's message when renewals kept failing (the database away): given up while a third of the lease is left. */
export const RENEWAL_FAILING = "lease renewal failing";

export interface LeaseRenewalOptions {
  /** The lease's length: it is renewed every third of it. */
  leaseMs: number;
  /** Renews the lease; false when it is no longer ours (taken over, or the work settled elsewhere). */
  renew: () => Promise<boolean>;
  /** A renewal threw (the caller logs it); two in a row give the work up. */
  onRenewalError: (e: unknown) => void;
}

/**
 * The job runtime's hold on the lease of one piece of work while it runs (an onboarding task,
 * a source verification): renewed every third of the lease, so it never lapses under a live
 * holder; `signal` aborts when a renewal is refused (`LEASE_LOST`: another job took it over) or
 * when renewals have failed for two thirds of the lease (`RENEWAL_FAILING`: fail closed, while a
 * third is left, so the work stops before another job may take it over and do it beside it).
 * The holder stops it (`stop()`) once the work has ended. docs/architecture.md#the-api-in-three-layers
 */
export class LeaseRenewal {
  private readonly abort = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private renewed = Date.now();

  constructor(opts: LeaseRenewalOptions) {
    const every = Math.max(50, Math.floor(opts.leaseMs / 3));
    this.timer = setInterval(
      detached(
        async () => {
          if (this.signal.aborted) return;
          if (!(await opts.renew())) this.abort.abort(new Error(LEASE_LOST));
          else this.renewed = Date.now();
        },
        (e) => {
          opts.onRenewalError(e);
          if (Date.now() - this.renewed >= 2 * every) this.abort.abort(new Error(RENEWAL_FAILING, { cause: e }));
        },
      ),
      every,
    );
  }

  /** Aborted once the lease is lost or its renewals keep failing; its reason says which. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Why the work was given up: undefined while the lease holds. */
  get lost(): typeof LEASE_LOST | typeof RENEWAL_FAILING | undefined {
    if (!this.signal.aborted) return undefined;
    return (this.signal.reason as Error).message === RENEWAL_FAILING ? RENEWAL_FAILING : LEASE_LOST;
  }

  /** The work has ended: no more renewals. */
  stop(): void {
    clearInterval(this.timer);
  }
}
