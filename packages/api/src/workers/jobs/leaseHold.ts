/** How a hold takes or renews one key's lease: true when it is ours now. */
export type TakeLease = (key: string) => Promise<boolean>;

export interface LeaseHoldOptions {
  /** The keys held (chain ids). */
  keys: readonly string[];
  take: TakeLease;
  leaseMs: number;
  /** How often a key not held is asked for (default: a third of the lease). */
  pollMs?: number;
  /** A renewal threw: the key is dropped at once (the caller logs it). */
  onError: (e: unknown, key: string) => void;
}

/**
 * The job runtime's hold on long-lived leases of a set of keys (the executor lease of each
 * chain): a job acts for a key only while `holds(key)`. A held lease is renewed once a third of it
 * has gone; one not held is asked for every `pollMs` when that is sooner (a lease another instance
 * gave back on shutdown is taken up within a poll, not a third of the lease later), so an idle
 * holder writes once per third of the lease, not once per poll; while every key is held its timer
 * wakes only when a renewal is due, not every poll. A renewal that fails or is refused
 * drops the hold at once, and a hold also ends by the clock where the last renewal's lease would.
 * docs/architecture.md#the-api-in-three-layers
 */
export class LeaseHold {
  private readonly until = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private running = false;
  private renewing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LeaseHoldOptions) {}

  /** Takes (or renews) the leases now; resolves once the first look is done. */
  start(): Promise<void> {
    this.running = true;
    return this.look();
  }

  /** Stops renewing and holds nothing (whoever took the leases gives them back). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.renewing;
    this.until.clear();
  }

  /** How often the hold looks: every poll, and at least every third of the lease. */
  private get tickMs(): number {
    const third = Math.floor(this.opts.leaseMs / 3);
    return Math.max(50, Math.min(this.opts.pollMs ?? third, third));
  }

  /** A look now, then the next when one is due (`nextMs`). */
  private async look(): Promise<void> {
    await this.renew();
    clearTimeout(this.timer);
    if (this.running) this.timer = setTimeout(() => void this.look(), this.nextMs());
  }

  /** Until the next look: a poll while a key is not held, else until the first renewal is due. */
  private nextMs(): number {
    const { keys, leaseMs } = this.opts;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const key of keys) {
      // Renewed at until - leaseMs; due a third of the lease after that.
      next = Math.min(next, this.holds(key) ? this.until.get(key)! - leaseMs + leaseMs / 3 - now : this.tickMs);
    }
    return Math.max(1, Math.min(next, leaseMs / 3));
  }

  holds(key: string): boolean {
    return (this.until.get(key) ?? 0) > Date.now();
  }

  private renew(): Promise<void> {
    const { keys, take, leaseMs, onError } = this.opts;
    this.renewing = this.renewing.then(async () => {
      for (const key of keys) {
        const asked = Date.now();
        // Held, and renewed less than a third of the lease ago (half a tick early counts, so a
        // timer that fires a little soon does not push the renewal a whole tick later): nothing
        // to write yet.
        const renewedAgo = asked - ((this.until.get(key) ?? 0) - leaseMs);
        if (this.holds(key) && renewedAgo < leaseMs / 3 - this.tickMs / 2) continue;
        try {
          if (await take(key)) this.until.set(key, asked + leaseMs);
          else this.until.delete(key);
        } catch (e) {
          this.until.delete(key);
          onError(e, key);
        }
      }
    });
    return this.renewing;
  }
}
