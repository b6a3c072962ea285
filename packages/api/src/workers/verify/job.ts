import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { submissionOf, type ExplorerClient } from "@points/deployer";
import type { Ctx } from "../../core/context.js";
import { doubling } from "../../core/backoff.js";
import { PassLoop, idleBackoffFor, warnUndrained } from "../jobs/passLoop.js";
import { explorerClients, redact } from "../../core/verify/explorers.js";
import { VerifyStore, type DueVerification, type ExplorerName } from "../../core/verify/store.js";

export interface VerifyJobOptions {
  chainIds: string[];
  /** How often an idle job looks for due verifications. */
  pollMs: number;
  /** Submissions in flight at once. */
  batch: number;
  /** A claimed verification is not claimed again for this long (a job that died leaves it to the next). */
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

  constructor(
    private readonly ctx: Ctx,
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

  /** `drainMs` bounds the wait for the pass in flight (submissions to the explorers). */
  async stop(drainMs?: number): Promise<void> {
    await this.loop.stop(drainMs);
  }

  /** Claims and runs one batch of due verifications; returns how many it ran. */
  async tick(): Promise<number> {
    const due = await this.store.claim(this.opts.chainIds, this.opts.batch, this.opts.leaseMs);
    await Promise.all(due.map((v) => this.verify(v)));
    return due.length;
  }

  private async verify(v: DueVerification): Promise<void> {
    const log = this.logger.child({ chainId: v.chainId, address: v.address, explorer: v.explorer });
    const client = this.clients.get(v.chainId)?.get(v.explorer);
    try {
      if (!client) {
        await this.store.settle(v, "failed", null, `${v.explorer} is no longer configured for chain ${v.chainId}`);
        return;
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
        await this.store.settle(v, "verified", r.url ?? null, null);
        log.info("source verified");
      } else if (r.status === "failed") {
        await this.store.settle(v, "failed", null, `${v.explorer} refused the source: ${message || "no reason given"}`);
        log.warn({ reason: message }, "source verification failed");
      } else {
        const delay = retryDelay(v.attempts, this.opts);
        await this.store.later(v, `${v.explorer} did not answer (${message}); asking again later`, delay);
        log.info({ reason: message, retryInMs: delay }, "explorer unreachable: verification retried later");
      }
    } catch (e) {
      // Our side failed (an artifact missing, the database): retried like an unanswered explorer.
      const reason = redact(e instanceof Error ? e.message : String(e), this.ctx.config);
      await this.store
        .later(v, `verification could not run (${reason}); asking again later`, retryDelay(v.attempts, this.opts))
        .catch(() => undefined);
      log.warn({ reason }, "source verification could not run");
    }
  }
}
