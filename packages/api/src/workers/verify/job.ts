import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { submissionOf, type ExplorerClient } from "@points/deployer";
import type { Ctx } from "../../core/context.js";
import { doubling } from "../../core/backoff.js";
import { PassLoop, idleBackoffFor, warnUndrained } from "../jobs/passLoop.js";
import { LeaseRenewal } from "../jobs/leaseRenewal.js";
import { explorerClients, redact } from "../../core/verify/explorers.js";
import { VerifyStore, type DueVerification, type ExplorerName } from "../../core/verify/store.js";

export interface VerifyJobOptions {
  chainIds: string[];
  /** How often an idle job looks for due verifications. */
  pollMs: number;
  /** Submissions in flight at once. */
  batch: number;
  /**
   * A claimed verification is another job's to take only after this long without renewal (a job
   * that died leaves it to the next); the holder renews it every third of it while it runs.
   */
  leaseMs: number;
  /** Waits before asking an explorer that did not answer again: doubling from min to max. */
  retryMinMs: number;
  retryMaxMs: number;
}

/** The wait before the attempt after `attempts` unanswered ones. */
export const retryDelay = (attempts: number, o: Pick<VerifyJobOptions, "retryMinMs" | "retryMaxMs">) =>
  doubling(attempts, o.retryMinMs, o.retryMaxMs);

/**
 * Verifies deployed contracts' sources on the chains' explorers (docs/deployment.md#source-verification),
 * alongside the onboarding worker and never in its way: a program's task has succeeded before
 * its contracts are queued here. An explorer that does not answer (down, 429, timeout) is asked
 * again later with a doubling wait; its refusal is final (failed, with its reason).
 */
export class SourceVerifyJob {
  readonly id = `verify-${randomUUID()}`;
  private readonly loop: PassLoop<number>;
  private readonly store: VerifyStore;
  private readonly clients = new Map<string, Map<ExplorerName, ExplorerClient>>();
  /** Claims given up while the database was away: given back by the next pass that reaches it. */
  private unreleased = false;

  constructor(
    private readonly ctx: Pick<Ctx, "config" | "db">,
    private readonly logger: Logger,
    readonly opts: VerifyJobOptions,
  ) {
    this.store = new VerifyStore(ctx.db);
    for (const c of ctx.config.chains) this.clients.set(String(c.chainId), explorerClients(ctx.config, c));
    // After a pass that ran some, the next at once; idle (or the database did not answer), after
    // pollMs, backing off to 4 polls while nothing is due (a program queued in this process pokes it).
    const backoff = idleBackoffFor(opts.pollMs, opts.leaseMs);
    this.loop = new PassLoop({
      job: "verify",
      pass: () => this.tick(),
      waitMs: (ran) => {
        if (!ran) return backoff.idle();
        backoff.busy();
        return 0;
      },
      onError: (e) => this.logger.warn({ err: e }, "source verification pass failed"),
      onUndrained: warnUndrained(this.logger, "verify"),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due verifications now (a program was just queued). */
  poke(): void {
    this.loop.poke();
  }

  /**
   * `drainMs` bounds the wait for the pass in flight (submissions to the explorers); then this
   * job's claims are given back at once, for another instance's next pass.
   */
  async stop(drainMs?: number): Promise<void> {
    await this.loop.stop(drainMs);
    await this.store
      .release(this.id)
      .catch((e: unknown) => this.logger.warn({ err: e }, "could not give the verification claims back"));
  }

  /** Claims and runs one batch of due verifications; returns how many it ran. */
  async tick(): Promise<number> {
    if (this.unreleased) {
      await this.store.release(this.id);
      this.unreleased = false;
    }
    const due = await this.store.claim(this.opts.chainIds, this.opts.batch, this.opts.leaseMs, this.id);
    await Promise.all(due.map((v) => this.verifyHeld(v)));
    return due.length;
  }

  /** Runs one claimed verification, renewing its claim meanwhile; an answer is written only while the claim is ours. */
  private async verifyHeld(v: DueVerification): Promise<void> {
    const log = this.logger.child({ chainId: v.chainId, address: v.address, explorer: v.explorer });
    const lease = new LeaseRenewal({
      leaseMs: this.opts.leaseMs,
      renew: () => this.store.renew(v, this.id, this.opts.leaseMs),
      onRenewalError: (e) => log.warn({ err: e }, "verification claim renewal failed"),
    });
    try {
      const written = await this.verify(v, log);
      if (!written) log.warn("verification claim lost: another job took it over, and its answer is kept");
    } finally {
      lease.stop();
    }
  }

  /** One submission and its answer; false when the claim was no longer ours to write it. */
  private async verify(v: DueVerification, log: Logger): Promise<boolean> {
    const client = this.clients.get(v.chainId)?.get(v.explorer);
    try {
      if (!client) {
        return await this.store.settle(
          v,
          this.id,
          "failed",
          null,
          `${v.explorer} is no longer configured for chain ${v.chainId}`,
        );
      }
      const target = {
        label: v.artifact,
        address: v.address,
        artifact: v.artifact,
        constructorArgs: v.constructorArgs,
      };
      const r = await client.verify(submissionOf(target, BigInt(v.chainId)));
      const message = redact(r.message ?? "", this.ctx.config);
      if (r.status === "verified") {
        const written = await this.store.settle(v, this.id, "verified", r.url ?? null, null);
        if (written) log.info("source verified");
        return written;
      }
      if (r.status === "failed") {
        const reason = `${v.explorer} refused the source: ${message || "no reason given"}`;
        const written = await this.store.settle(v, this.id, "failed", null, reason);
        if (written) log.warn({ reason: message }, "source verification failed");
        return written;
      }
      const delay = retryDelay(v.attempts, this.opts);
      const written = await this.store.later(
        v,
        this.id,
        `${v.explorer} did not answer (${message}); asking again later`,
        delay,
      );
      if (written) log.info({ reason: message, retryInMs: delay }, "explorer unreachable: verification retried later");
      return written;
    } catch (e) {
      // Our side failed (an artifact missing, the database): retried like an unanswered explorer.
      const reason = redact(e instanceof Error ? e.message : String(e), this.ctx.config);
      log.warn({ reason }, "source verification could not run");
      return await this.store
        .later(
          v,
          this.id,
          `verification could not run (${reason}); asking again later`,
          retryDelay(v.attempts, this.opts),
        )
        .catch(() => {
          // The claim is still ours in the database: given back once it answers.
          this.unreleased = true;
          return true;
        });
    }
  }
}
