import type { Logger } from "pino";
import type { Ctx } from "../../core/context.js";
import { contract, target, type Target } from "../../core/program/target.js";
import { pendingRequests } from "../../core/desk/queue.js";
import { PassLoop, idleBackoffFor, warnUndrained } from "../jobs/passLoop.js";
import { DeskStore } from "../../core/desk/store.js";
import { DeskBounds } from "../../core/desk/bounds.js";
import { batchGas, pack, simulate, skipped } from "./plan.js";
import type { ExecutorSender } from "./sender.js";
import { ExecutorLeaseNotHeld } from "./lease.js";
import { EngineError } from "../../core/engine/errors.js";
import { executorStatus } from "../../core/desk/executor.js";

export interface DeskJobOptions {
  /** Most requests per finalizeRedeemBatch transaction (gas also caps a batch: plan.ts). */
  batchSize: number;
  /** How often the job looks at the chains while some desk is not off. */
  pollMs: number;
  /** How often it looks for desks when none is active (backing off to 4 times as long). */
  idlePollMs: number;
  /** The executor lease's length: an idle wait stays under a third of it. */
  leaseMs: number;
}

/**
 * The redemption desk's job (docs/deployment.md#redemption-desk): for each program whose policy
 * is automatic, finalizes every pending request whose readyAt has passed at the latest block,
 * in batches sent together so they share the next block; carries out managers' decisions
 * (approve: finalize at once; reject: rejectRedeem). Sends nothing for a program whose
 * executor lacks EXECUTOR_ROLE.
 */
export class RedemptionDeskJob {
  private readonly loop: PassLoop<number>;
  private readonly store: DeskStore;
  private readonly bounds: DeskBounds;

  constructor(
    private readonly ctx: Ctx,
    private readonly sender: ExecutorSender,
    private readonly logger: Logger,
    private readonly opts: DeskJobOptions,
  ) {
    this.store = new DeskStore(ctx.db);
    this.bounds = new DeskBounds(ctx.db, ctx.config.desk);
    // With no desk to serve (or the database did not answer), look no more often than the
    // onboarding worker does, backing off to 4 of its polls while none appears.
    const backoff = idleBackoffFor(opts.idlePollMs, opts.leaseMs);
    this.loop = new PassLoop({
      job: "desk",
      pass: () => this.tick(),
      waitMs: (active) => {
        if (!active) return backoff.idle();
        backoff.busy();
        return opts.pollMs;
      },
      onError: (e) => this.logger.warn({ err: e }, "redemption desk could not read its policies"),
      onUndrained: warnUndrained(this.logger, "desk"),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** `drainMs` bounds the wait for the pass in flight (a batch waiting on a stuck transaction). */
  async stop(drainMs?: number): Promise<void> {
    await this.loop.stop(drainMs);
  }

  /** One pass over every active desk; returns how many there were. */
  async tick(): Promise<number> {
    const active = await this.store.active();
    for (const { programId, policy } of active) {
      if (this.loop.stopped) break;
      try {
        await this.run(await target(this.ctx, programId), policy);
      } catch (e) {
        this.logger.error({ err: e, programId }, "redemption desk pass failed");
      }
    }
    return active.length;
  }

  private async run(t: Target, policy: string): Promise<void> {
    const chainId = t.program.chainId;
    const executor = this.sender.address(chainId);
    if ((await executorStatus(t, executor)) !== "ready" || !executor) return;
    const pid = t.program.id;
    const { pending } = await pendingRequests(t);
    const open = new Set(pending.map((p) => p.requestId));
    const queued = await this.store.decisions(pid, "queued");
    const decided = new Set((await this.store.decisions(pid)).map((d) => d.requestId));
    // A decision on a request no longer pending (cancelled, finalized by its requester) is void.
    const gone = queued.filter((d) => !open.has(d.requestId)).map((d) => d.requestId);
    await this.store.settle(pid, gone, "failed", null, "the request was no longer pending");
    const now = Date.now();
    const budget = await this.bounds.budget(pid, now);
    // A spent budget pauses everything the desk would send for this program until the next UTC day.
    if (budget.pausedUntil) return;
    const rejects = queued.filter((d) => d.decision === "reject" && open.has(d.requestId)).map((d) => d.requestId);
    const approved = new Set(
      queued.filter((d) => d.decision === "approve" && open.has(d.requestId)).map((d) => d.requestId),
    );
    const min = BigInt(budget.minAmount);
    const matured =
      policy === "automatic"
        ? pending.filter((p) => p.ready && !decided.has(p.requestId) && BigInt(p.amount) >= min).map((p) => p.requestId)
        : [];
    // Requests held after a refusal or a skip wait out their backoff unless their state moved.
    const holds = await this.bounds.holds(pid);
    const byId = new Map(pending.map((p) => [p.requestId, p]));
    const print = (id: string) => JSON.stringify({ ...byId.get(id), ready: undefined, approved: approved.has(id) });
    const due = (id: string) => {
      const h = holds.get(id);
      return !h || h.fingerprint !== print(id) || h.nextAt <= now;
    };
    const candidates = [...approved, ...matured].filter(due);
    const sims = candidates.length ? await simulate(t, executor, candidates) : [];
    const ok: { requestId: string; gas: bigint }[] = [];
    for (const s of sims) {
      if ("gas" in s) ok.push(s);
      else
        await this.refuse(
          pid,
          s.requestId,
          print(s.requestId),
          approved.has(s.requestId),
          `simulation refused it: ${s.refused}`,
          now,
        );
    }
    const cap = BigInt(this.bounds.defaults.maxGasPerTx);
    const remaining = BigInt(budget.gasBudgetPerDay) - BigInt(budget.gasSpentToday);
    const { batches, tooBig, overBudget } = pack(ok, this.opts.batchSize, cap, remaining);
    if (overBudget) {
      await this.bounds.exhaust(pid, now);
      this.logger.warn({ programId: pid, ...budget }, "redemption desk paused: the day's gas budget is spent");
    }
    for (const r of tooBig) {
      const why = `it needs ${batchGas(r.gas > 21_000n ? r.gas - 21_000n : 0n)} gas, over EXECUTOR_MAX_GAS_PER_TX (${cap})`;
      await this.refuse(pid, r.requestId, print(r.requestId), approved.has(r.requestId), why, now);
    }
    const factory = contract(t, "factory");
    const sends: Promise<void>[] = [];
    for (const b of batches) {
      const data = factory.interface.encodeFunctionData("finalizeRedeemBatch", [b.ids]);
      sends.push(this.sendBatch(t, b.ids, approved, print, { to: t.program.factory, data, gasLimit: b.gasLimit }));
    }
    for (const id of rejects) {
      const data = factory.interface.encodeFunctionData("rejectRedeem", [id]);
      sends.push(this.send(t, [id], { to: t.program.factory, data }));
    }
    await Promise.all(sends);
  }

  /** Holds a request with backoff; an approval it carried is recorded as failed with the reason. */
  private async refuse(pid: string, id: string, fingerprint: string, approved: boolean, why: string, now: number) {
    await this.bounds.hold(pid, id, fingerprint, why, now);
    if (approved) await this.store.settle(pid, [id], "failed", null, why);
    this.logger.info({ programId: pid, requestId: id, reason: why }, "redemption desk holds a request");
  }

  /** Sends one batch; only the requests it really finalized count as sent. */
  private async sendBatch(
    t: Target,
    ids: string[],
    approved: Set<string>,
    print: (id: string) => string,
    tx: { to: string; data: string; gasLimit: bigint },
  ): Promise<void> {
    const pid = t.program.id;
    try {
      const receipt = await this.sender.send(t.program.chainId, tx);
      await this.bounds.spend(pid, receipt.gasUsed);
      this.logger.info(
        { programId: pid, requests: ids.length, gasLimit: String(tx.gasLimit), gasUsed: String(receipt.gasUsed) },
        "redemption desk batch mined",
      );
      if (receipt.status !== 1) {
        for (const id of ids) await this.refuse(pid, id, print(id), approved.has(id), "the batch reverted", Date.now());
        return;
      }
      const skips = skipped(t, receipt);
      const done = ids.filter((id) => !skips.has(id));
      await this.store.settle(
        pid,
        done.filter((id) => approved.has(id)),
        "sent",
        receipt.hash,
        null,
      );
      await this.bounds.release(pid, done);
      for (const [id, why] of skips) {
        await this.bounds.hold(pid, id, print(id), `the batch skipped it: ${why}`);
        if (approved.has(id))
          await this.store.settle(pid, [id], "failed", receipt.hash, `the batch skipped it: ${why}`);
      }
    } catch (e) {
      if (this.notOurs(e, pid)) return;
      this.logger.warn({ err: e, programId: pid }, "redemption desk transaction failed");
      const why = "the transaction failed; see the server log";
      for (const id of ids) await this.refuse(pid, id, print(id), approved.has(id), why, Date.now());
    }
  }

  /** Sends one transaction and records its outcome on the decisions it carries out. */
  private async send(t: Target, decisions: string[], tx: { to: string; data: string }): Promise<void> {
    try {
      const receipt = await this.sender.send(t.program.chainId, tx);
      await this.bounds.spend(t.program.id, receipt.gasUsed);
      const ok = receipt.status === 1;
      await this.store.settle(t.program.id, decisions, ok ? "sent" : "failed", receipt.hash, ok ? null : "reverted");
    } catch (e) {
      if (this.notOurs(e, t.program.id)) return;
      this.logger.warn({ err: e, programId: t.program.id }, "redemption desk transaction failed");
      await this.store.settle(t.program.id, decisions, "failed", null, "the transaction failed; see the server log");
    }
  }

  /**
   * A send refused because this process no longer holds the executor lease: nothing was sent, so
   * nothing is held back or failed; the requests and decisions wait for the lease's holder. So
   * too a wait the shutdown cut (ENGINE_STOPPED): the transaction may still be mined, and the
   * next holder reads the outcome from the chain; recording a failure would hold the requests back
   * (and write after the database closed).
   */
  private notOurs(e: unknown, programId: string): boolean {
    if (e instanceof EngineError && e.code === "ENGINE_STOPPED") {
      this.logger.info({ programId }, "redemption desk stopped waiting: the shutdown stopped the engine");
      return true;
    }
    if (!(e instanceof ExecutorLeaseNotHeld)) return false;
    this.logger.info(
      { programId, chainId: e.chainId },
      "redemption desk sent nothing: the executor lease is not ours now",
    );
    return true;
  }
}
