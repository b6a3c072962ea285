/** What a step does besides reading the chain: catchUp (tests, the CLI) does everything at once. */
export interface StepMode {
  /** Take or renew the chain's lease first. */
  lease: boolean;
  /** Rebuild pending program state and follow programs registered meanwhile. */
  registry: boolean;
  /** Leave an empty range at the head uncommitted when a commit was made recently. */
  deferEmpty: boolean;
}
export const EAGER: StepMode = { lease: true, registry: true, deferEmpty: false };

/** A quiet chain with no program to follow: no head to compare, only the time to the next full step. */
export const NO_HEAD = -1;

/**
 * How often the indexer's passes do each part of a step, per chain (packages/api/README.md#the-indexer):
 * what it last did and when, and what a pass may therefore skip.
 */
export class LedgerPacing {
  /** The head at which the last full step found nothing to do, and when. */
  private readonly quiet = new Map<string, { head: number; at: number }>();
  private readonly lastLease = new Map<string, number>();
  private readonly lastRegistry = new Map<string, number>();
  private readonly lastCommit = new Map<string, number>();
  /** Chains whose last read of the blocks after the cursor found a log. */
  private readonly eventful = new Set<string>();
  /** The head last seen (number and hash), when it was first seen, and whether the move before it was a whole block time. */
  private readonly seen = new Map<string, { head: number; hash: string; at: number; paced: boolean }>();

  constructor(
    private readonly pollMs: number,
    private readonly leaseMs: number,
    /** Each chain's configured block time (`blockTimeMs`), by chain id. */
    private readonly blockTimeMs: ReadonlyMap<string, number> = new Map(),
  ) {}

  /** At most this long between full steps of a quiet chain: eight polls, under a third of the lease. */
  get fullStepMs(): number {
    return Math.min(8 * this.pollMs, Math.floor(this.leaseMs / 3));
  }

  /**
   * Whether a pass may skip the chain: its last full step found nothing to do, the node's head
   * (`head()`) has not moved since, and the last full step is recent (`fullStepMs`: it renews the
   * lease and picks up programs registered meanwhile). An idle pass is then one eth_blockNumber,
   * no database work. A node that fails here gets a full step, which reports it.
   */
  async stillQuiet(chainId: string, head: () => Promise<number>): Promise<boolean> {
    const q = this.quiet.get(chainId);
    if (!q || Date.now() - q.at >= this.fullStepMs) return false;
    if (q.head === NO_HEAD) return true;
    try {
      // Still quiet unless the head moved, or was replaced at the same height (sawHead).
      return (await head()) === q.head && this.quiet.get(chainId) === q;
    } catch {
      return false;
    }
  }

  /**
   * How a pass steps a chain: the lease is renewed once a third of it has gone (every commit
   * renews it too, and refuses to write without it), the registry and pending state are looked at
   * every `fullStepMs`, and an empty range at the head is left for the next, longer one until
   * `fullStepMs` has passed since the last commit. A chain where nothing happens then costs a
   * commit per `fullStepMs`, not per block; a range with a log is committed at once.
   */
  passMode(chainId: string): StepMode {
    const now = Date.now();
    const since = (at: Map<string, number>) => now - (at.get(chainId) ?? Number.NEGATIVE_INFINITY);
    return {
      lease: since(this.lastLease) >= this.leaseMs / 3,
      registry: since(this.lastRegistry) >= this.fullStepMs,
      deferEmpty: true,
    };
  }

  /** Whether an empty range at the head may wait: a commit was made less than `fullStepMs` ago. */
  mayWait(chainId: string): boolean {
    return Date.now() - (this.lastCommit.get(chainId) ?? 0) < this.fullStepMs;
  }

  /**
   * Whether an idle pass may first ask only for the logs after the cursor (indexer.ts, nothingSince):
   * an empty range may wait, and the last read found no log. Logs found that way are read again
   * after the range's end header (a reorg between the two reads would otherwise go unseen), so on a
   * chain with an event in every block each range's logs are asked for once, not twice.
   */
  mayProbe(chainId: string): boolean {
    return !this.eventful.has(chainId) && this.mayWait(chainId);
  }

  /** A read of the blocks after the cursor found a log, or none. */
  sawLogs(chainId: string, found: boolean): void {
    if (found) this.eventful.add(chainId);
    else this.eventful.delete(chainId);
  }

  /**
   * The node's head as a pass read it: a move by one block is timed, for `waitMs`; a new block at
   * the same height (a reorg at the head) ends the quiet, so the next step reads it.
   */
  sawHead(chainId: string, head: number, hash: string): void {
    const last = this.seen.get(chainId);
    if (last?.head === head) {
      if (last.hash !== hash) {
        this.quiet.delete(chainId);
        last.hash = hash;
      }
      return;
    }
    const now = Date.now();
    const bt = this.blockTimeMs.get(chainId) ?? 0;
    // Paced: the chain moved by one block, a whole block time (less a poll) after the last move.
    const paced = last !== undefined && head === last.head + 1 && now - last.at >= bt - this.pollMs;
    this.seen.set(chainId, { head, hash, at: now, paced });
  }

  /**
   * How long an idle loop waits before its next pass: `pollMs`, or longer when every chain is
   * quiet and keeps its block time. A chain whose head moved by one block a block time after the
   * move before is asked again a block time less a quarter poll after it was seen moving. With
   * blocks a block time apart, that look finds the next block whenever the last was seen more than
   * a quarter poll after it came, and then sees it a quarter poll sooner after it came; a look
   * that finds nothing is followed by one a poll later, which finds it less than a poll late. So a
   * block is still seen within a poll, with about 1.25 head requests per block (one look in four
   * finds nothing) instead of a block time's worth of polls. The wait never passes a chain's next
   * full step (`fullStepMs`).
   */
  waitMs(chainIds: string[]): number {
    const now = Date.now();
    let until = Number.POSITIVE_INFINITY;
    for (const chainId of chainIds) {
      const q = this.quiet.get(chainId);
      if (!q) return this.pollMs;
      let due = q.at + this.fullStepMs;
      const s = this.seen.get(chainId);
      if (q.head !== NO_HEAD) {
        if (!s?.paced || s.head !== q.head) return this.pollMs;
        due = Math.min(due, s.at + (this.blockTimeMs.get(chainId) ?? 0) - this.pollMs / 4);
      }
      until = Math.min(until, due);
    }
    return Math.max(this.pollMs, until - now);
  }

  /** A full step found nothing to do at `head`: the passes until the next full step may skip the chain. */
  quietAt(chainId: string, head: number): false {
    this.quiet.set(chainId, { head, at: Date.now() });
    return false;
  }

  /** A step did work: the next pass steps the chain again. */
  busy(chainId: string): void {
    this.quiet.delete(chainId);
  }

  /** The lease was refused, or a step failed: the next pass takes the lease and steps afresh. */
  reset(chainId: string): void {
    this.quiet.delete(chainId);
    this.seen.delete(chainId);
    this.lastLease.delete(chainId);
    this.eventful.delete(chainId);
  }

  /** Whether half the lease or more has gone since this instance last took it (it may lapse, or have lapsed). */
  leaseLapsing(chainId: string, now: number): boolean {
    return now - (this.lastLease.get(chainId) ?? Number.NEGATIVE_INFINITY) >= this.leaseMs / 2;
  }

  leased(chainId: string, at: number): void {
    this.lastLease.set(chainId, at);
  }

  registryChecked(chainId: string, at: number): void {
    this.lastRegistry.set(chainId, at);
  }

  committed(chainId: string): void {
    this.lastCommit.set(chainId, Date.now());
  }
}
