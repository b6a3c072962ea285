import { doubling } from "../../core/backoff.js";
import { jobDeclared, jobPassEnded } from "../../core/metrics/index.js";

export interface PassLoopOptions<T> {
  /** The job's name ("onboarding", "ledger"...): its metrics' `job` label; a stop that timed out names it. */
  job: string;
  /** One pass of the job. */
  pass: () => Promise<T>;
  /**
   * How long to wait after a pass (0: the next pass at once); `undefined` after a pass that threw,
   * whose wait then doubles per failed pass in a row (see `failureMaxMs`).
   */
  waitMs: (result: T | undefined) => number;
  /**
   * The longest wait after failed passes in a row: `waitMs(undefined)` doubling per failure up to
   * this. Default: 16 times `waitMs(undefined)`, at most 30 s (and never less than it).
   */
  failureMaxMs?: number;
  /** A pass threw. */
  onError: (e: unknown) => void;
  /** stop() gave up waiting for the pass in flight after `timeoutMs` (the job did not drain). */
  onUndrained?: (timeoutMs: number) => void;
  /** Unix time in ms, for pass durations and the last success's time (tests inject a clock). */
  now?: () => number;
}

/** The default bound on the wait after failed passes in a row (`PassLoopOptions.failureMaxMs`). */
const FAILURE_MAX_MS = 30_000;

/** The usual `onUndrained`: a warning on the job's logger naming the job. */
export const warnUndrained =
  (logger: { warn(obj: object, msg: string): void }, job: string) =>
  (timeoutMs: number): void =>
    logger.warn(
      { job, drainMs: timeoutMs },
      `${job} job did not drain: its pass was still running after ${timeoutMs} ms (JOB_DRAIN_MS); stopping without it`,
    );

/**
 * Every background job's loop (onboarding worker, ledger indexer, webhook dispatcher, redemption
 * desk, source verification): run a pass, then wait `waitMs(result)` (0: the next pass at once)
 * or until poked. A poke during a pass is kept: the next pass runs as soon as this one ends, so
 * work queued mid-pass never waits a whole poll. A pass that throws is reported and the loop goes
 * on after the wait (its result is then undefined): a database that did not answer never crashes
 * the service, and passes that keep failing back off (the wait doubles per failure in a row, up to
 * `failureMaxMs`; a pass that succeeds or a poke starts again at once). Each pass is counted in the process's metrics under the job's name
 * (`points_job_passes_total`, `points_job_pass_seconds`, `points_job_last_success_timestamp_seconds`).
 * stop() ends the wait and resolves once the pass in flight has finished, or once its bound has
 * passed; a stopped loop does not start again. docs/architecture.md#the-api-in-three-layers
 */
export class PassLoop<T> {
  readonly job: string;
  private halted = false;
  private poked = false;
  private failures = 0;
  private loop?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private wake?: () => void;
  private readonly now: () => number;

  constructor(private readonly opts: PassLoopOptions<T>) {
    this.job = opts.job;
    this.now = opts.now ?? Date.now;
    jobDeclared(opts.job);
  }

  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    if (this.halted) return;
    this.loop ??= this.main();
  }

  /** The next pass runs now, or right after the one in flight (work was just queued). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  /**
   * No pass starts any more; resolves once the pass in flight has finished (true), or after
   * `timeoutMs` when one was given and it is still running (false: reported through
   * `onUndrained`; the pass goes on in the background and no pass follows it). Without a bound
   * it waits for the pass however long it takes.
   */
  async stop(timeoutMs?: number): Promise<boolean> {
    this.halted = true;
    clearTimeout(this.timer);
    this.wake?.();
    if (!this.loop) return true;
    if (timeoutMs === undefined) {
      await this.loop;
      return true;
    }
    let bound: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      this.loop.then(() => true),
      new Promise<false>((resolve) => (bound = setTimeout(() => resolve(false), Math.max(0, timeoutMs)))),
    ]);
    clearTimeout(bound);
    if (!drained) this.opts.onUndrained?.(timeoutMs);
    return drained;
  }

  /** The wait after the `failures`-th failed pass in a row. */
  private failureWaitMs(): number {
    const base = this.opts.waitMs(undefined);
    if (base <= 0) return base;
    const max = Math.max(base, this.opts.failureMaxMs ?? Math.min(FAILURE_MAX_MS, 16 * base));
    return doubling(this.failures, base, max);
  }

  private async main(): Promise<void> {
    while (!this.halted) {
      this.poked = false;
      let result: T | undefined;
      const started = this.now();
      let ok = false;
      try {
        result = await this.opts.pass();
        ok = true;
      } catch (e) {
        this.opts.onError(e);
      }
      const ended = this.now();
      jobPassEnded(this.job, ok, (ended - started) / 1000, ended);
      this.failures = ok ? 0 : this.failures + 1;
      const ms = ok ? this.opts.waitMs(result) : this.failureWaitMs();
      if (this.halted || ms <= 0 || this.poked) continue;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, ms);
      });
      this.wake = undefined;
      clearTimeout(this.timer);
    }
  }
}

/**
 * The waits of a job that backs off while it finds nothing: `baseMs` after the first idle pass,
 * doubling per idle pass in a row up to `maxMs`; a pass with work starts again from `baseMs`.
 * An idle instance then polls its database at most about once per IDLE_MAX_MS (packages/api/README.md#configuration).
 */
export class IdleBackoff {
  private streak = 0;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** The wait after an idle pass. */
  idle(): number {
    this.streak++;
    return Math.max(this.baseMs, doubling(this.streak, this.baseMs, this.maxMs));
  }

  /** A pass found work: the next idle wait is `baseMs` again. */
  busy(): void {
    this.streak = 0;
  }
}

/**
 * The longest wait of an idle job whose poll is short: a job polled every 250 ms still backs off
 * to this, so an idle instance wakes each job at most about once per IDLE_MAX_MS. Work queued in
 * the same process wakes the job at once; work queued by another process waits at most this.
 */
export const IDLE_MAX_MS = 4_000;

/**
 * How far an idle job's poll backs off: to IDLE_MAX_MS or four polls, whichever is longer, and
 * never past a third of the lease its passes renew.
 */
export const idleBackoffFor = (pollMs: number, leaseMs: number) =>
  new IdleBackoff(pollMs, Math.max(pollMs, Math.min(Math.max(4 * pollMs, IDLE_MAX_MS), Math.floor(leaseMs / 3))));
