import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Task, TaskRepo } from "../../core/onboarding/tasks.js";
import { taskErrorOf } from "../../core/onboarding/taskError.js";
import { PassLoop, idleBackoffFor, warnUndrained } from "../jobs/passLoop.js";
import { LeaseRenewal, RENEWAL_FAILING } from "../jobs/leaseRenewal.js";

export interface WorkerOptions {
  /** Chains this worker deploys on. */
  chainIds: string[];
  /** How long a claimed task (and the chain's executor key) stays ours without renewal. */
  leaseMs: number;
  /** How often an idle worker looks for work. */
  pollMs: number;
  /** Tasks of a chain run at once (default 1); above one they share the chain's transaction engine. */
  concurrency?: (chainId: string) => number;
  /** Runs when the worker stops, before it waits for its tasks (tasks waiting for funds give up). */
  onStopping?: () => void;
  /** Runs when the worker stops, once every task has ended or the drain is over (closes the engines). */
  onStop?: () => Promise<void>;
  /** How long stop() lets running tasks finish before the engines stop (default 5 s). */
  drainMs?: number;
}

/** Runs one claimed task to its end; throws to fail it (a TaskFailure names the stage). */
export type TaskRunner = (task: Task, signal: AbortSignal) => Promise<{ programId: string }>;

/**
 * Claims queued tasks and runs them. Claims go through the database (row locks, leases), so
 * any number of workers, in API processes or on their own, share the queue; a task whose
 * worker died is taken over when its lease expires and resumes through the deployer.
 * Per chain, one worker holds the executor lease and runs up to `concurrency` of that chain's
 * tasks at once (their transactions share blocks through the chain's engine).
 */
export class Worker {
  readonly id = `worker-${randomUUID()}`;
  /** The drain is over and the engines stop: whatever a task throws now comes from the shutdown. */
  private halted = false;
  private readonly loop: PassLoop<boolean>;
  private readonly running = new Map<string, Set<Promise<void>>>();
  /** Tasks this worker gave up while its database was away, to give back once it answers. */
  private readonly unreleased = new Set<string>();
  /** Per chain, when this worker last took or renewed the executor lease (before the call). */
  private readonly executorLeasedAt = new Map<string, number>();

  constructor(
    private readonly tasks: TaskRepo,
    private readonly run: TaskRunner,
    private readonly logger: Logger,
    private readonly opts: WorkerOptions,
  ) {
    // After a pass that started a task, the next at once (there may be more); idle, after pollMs,
    // backing off to 4 polls while nothing comes (a task queued in this process pokes it).
    const backoff = idleBackoffFor(opts.pollMs, opts.leaseMs);
    this.loop = new PassLoop({
      job: "onboarding",
      pass: () => this.pass(),
      waitMs: (worked) => {
        if (!worked) return backoff.idle();
        backoff.busy();
        return 0;
      },
      onError: (e) => this.logger.error({ err: e }, "onboarding worker pass failed"),
      onUndrained: warnUndrained(this.logger, "onboarding"),
    });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  start(): void {
    this.loop.start();
  }

  /** Asks an idle worker to look for work now (after a task was queued). */
  poke(): void {
    this.loop.poke();
  }

  /** `loopDrainMs` bounds the wait for the pass in flight (claiming); running tasks get `drainMs` after it. */
  async stop(loopDrainMs?: number): Promise<void> {
    await this.loop.stop(loopDrainMs);
    this.opts.onStopping?.();
    // Bounded drain: a task waiting on a stuck transaction would hold shutdown for its whole
    // replacement window. After the drain the engines stop, which ends every wait with
    // ENGINE_STOPPED (the task resumes elsewhere when its lease ends).
    const running = Promise.all([...this.running.values()].flatMap((r) => [...r]));
    let drained: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise((r) => (drained = setTimeout(r, this.opts.drainMs ?? 5_000)))]);
    clearTimeout(drained);
    this.halted = true;
    await this.opts.onStop?.();
    await running;
    // Every task has ended: one still leased to us was left unfinished. Leases are given back so
    // another instance takes the executor and resumes those tasks now, not at expiry.
    const left = await this.tasks.releaseTasks(this.id).catch((e: unknown) => {
      this.logger.warn({ err: e }, "could not release the stopped worker's task leases");
      return [];
    });
    if (left.length > 0) this.logger.info({ taskIds: left }, "released unfinished onboarding tasks for another worker");
    await Promise.all(this.opts.chainIds.map((c) => this.tasks.releaseExecutor(c, this.id).catch(() => undefined)));
  }

  /** One pass over the worker's chains; true when it started a task. */
  private async pass(): Promise<boolean> {
    for (const id of this.unreleased) {
      await this.tasks.releaseTask(id, this.id);
      this.unreleased.delete(id);
    }
    let worked = false;
    for (const chainId of this.opts.chainIds) {
      if (this.stopped) break;
      try {
        worked = (await this.step(chainId)) || worked;
      } catch (e) {
        this.logger.error({ err: e, chainId }, "onboarding worker step failed");
      }
    }
    return worked;
  }

  /** Starts tasks of `chainId` up to its concurrency; true when it started one. */
  private async step(chainId: string): Promise<boolean> {
    let running = this.running.get(chainId);
    if (!running) this.running.set(chainId, (running = new Set()));
    const limit = this.opts.concurrency?.(chainId) ?? 1;
    let started = false;
    while (running.size < limit && !this.stopped) {
      if (!(await this.holdExecutor(chainId))) break;
      const task = await this.tasks.claim(chainId, this.id, this.opts.leaseMs);
      if (!task) break;
      if (this.stopped) {
        // Claimed by a pass the stop stopped waiting for (JOB_DRAIN_MS): the worker's engines and
        // leases may be gone already, so the task is not started; its lease goes back at once.
        await this.tasks.releaseTask(task.id, this.id).catch((e: unknown) => {
          this.logger.warn({ err: e, taskId: task.id }, "could not release a task claimed while stopping");
        });
        break;
      }
      const p: Promise<void> = this.runTask(chainId, task).finally(() => {
        running.delete(p);
        this.poke();
      });
      running.add(p);
      started = true;
    }
    return started;
  }

  /**
   * Takes or renews the chain's executor lease before a claim, or skips the write when this
   * worker did so less than a third of the lease ago: a task then starts with at least two
   * thirds of it left, and its renewals keep it. An idle worker writes the lease once per third
   * of it, not once per pass. A refusal is not remembered: a worker without it asks every pass.
   */
  private async holdExecutor(chainId: string): Promise<boolean> {
    const at = Date.now();
    if (at - (this.executorLeasedAt.get(chainId) ?? Number.NEGATIVE_INFINITY) < this.opts.leaseMs / 3) return true;
    this.executorLeasedAt.delete(chainId);
    if (!(await this.tasks.leaseExecutor(chainId, this.id, this.opts.leaseMs))) return false;
    this.executorLeasedAt.set(chainId, at);
    return true;
  }

  /** Runs one claimed task to its end, renewing its lease (and the executor's) meanwhile. */
  private async runTask(chainId: string, task: Task): Promise<void> {
    const log = this.logger.child({ taskId: task.id, brand: task.brand, chainId, attempt: task.attempts });
    log.info("onboarding task started");
    const lease = new LeaseRenewal({
      leaseMs: this.opts.leaseMs,
      renew: async () => {
        if (!(await this.tasks.renew(task.id, this.id, this.opts.leaseMs))) return false;
        const held = await this.tasks.leaseExecutor(chainId, this.id, this.opts.leaseMs);
        if (!held) this.executorLeasedAt.delete(chainId);
        return held;
      },
      onRenewalError: (e) => log.warn({ err: e }, "lease renewal failed"),
    });
    try {
      const { programId } = await this.run(task, lease.signal);
      await this.tasks.finish(task.id, this.id, { programId });
      log.info({ programId }, "onboarding task succeeded");
    } catch (e) {
      if (lease.lost) {
        log.warn({ err: e }, "onboarding task lost its lease; another worker resumes it");
        // Given up for failing renewals, the task is still ours in the database: given back (now,
        // or by a later pass once the database answers) so that any worker, this one too, resumes it.
        if (lease.lost === RENEWAL_FAILING) {
          await this.tasks.releaseTask(task.id, this.id).catch(() => this.unreleased.add(task.id));
        }
      } else if (this.halted || (this.stopped && taskErrorOf(e).code === "ENGINE_STOPPED")) {
        // Not the task's failure: its engine or provider went away under it. Left running, its
        // lease is given back and another worker resumes it through the deployer.
        log.warn({ err: e }, "worker stopped while the task ran; another worker resumes it");
      } else {
        await this.tasks.finish(task.id, this.id, { error: taskErrorOf(e) });
        log.warn({ err: e }, "onboarding task failed");
      }
    } finally {
      lease.stop();
    }
  }
}
