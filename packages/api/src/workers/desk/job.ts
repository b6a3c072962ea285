import type { Logger } from "pino";
import type { Ctx } from "../../core/context.js";
import { contract, target, type Target } from "../../core/program/target.js";
import { pendingRequests } from "../../core/desk/queue.js";
import { PassLoop } from "../jobs/passLoop.js";
import { DeskStore } from "../../core/desk/store.js";
import type { ExecutorSender } from "./sender.js";
import { executorStatus } from "../../core/desk/executor.js";

export interface DeskJobOptions {
  /** Requests per finalizeRedeemBatch transaction (about 40,000 gas each). */
  batchSize: number;
  /** How often the job looks at the chains while some desk is not off. */
  pollMs: number;
  /** How often it looks for desks when none is active. */
  idlePollMs: number;
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

  constructor(
    private readonly ctx: Ctx,
    private readonly sender: ExecutorSender,
    private readonly logger: Logger,
    private readonly opts: DeskJobOptions,
  ) {
    this.store = new DeskStore(ctx.db);
    // With no desk to serve (or the database did not answer), look no more often than the
    // onboarding worker does.
    this.loop = new PassLoop(
      () => this.tick(),
      (active) => (active ? opts.pollMs : opts.idlePollMs),
      (e) => this.logger.warn({ err: e }, "redemption desk could not read its policies"),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
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
    if ((await executorStatus(t, this.sender.address(chainId))) !== "ready") return;
    const { pending } = await pendingRequests(t);
    const open = new Set(pending.map((p) => p.requestId));
    const queued = await this.store.decisions(t.program.id, "queued");
    const decided = new Set((await this.store.decisions(t.program.id)).map((d) => d.requestId));
    // A decision on a request no longer pending (cancelled, finalized by its requester) is void.
    const gone = queued.filter((d) => !open.has(d.requestId)).map((d) => d.requestId);
    await this.store.settle(t.program.id, gone, "failed", null, "the request was no longer pending");
    const rejects = queued.filter((d) => d.decision === "reject" && open.has(d.requestId)).map((d) => d.requestId);
    const approved = queued.filter((d) => d.decision === "approve" && open.has(d.requestId)).map((d) => d.requestId);
    const matured =
      policy === "automatic" ? pending.filter((p) => p.ready && !decided.has(p.requestId)).map((p) => p.requestId) : [];
    const finalize = [...approved, ...matured];
    const factory = contract(t, "factory");
    const sends: Promise<void>[] = [];
    for (let i = 0; i < finalize.length; i += this.opts.batchSize) {
      const ids = finalize.slice(i, i + this.opts.batchSize);
      const data = factory.interface.encodeFunctionData("finalizeRedeemBatch", [ids]);
      sends.push(
        this.send(
          t,
          ids.filter((id) => approved.includes(id)),
          { to: t.program.factory, data },
        ),
      );
    }
    for (const id of rejects) {
      const data = factory.interface.encodeFunctionData("rejectRedeem", [id]);
      sends.push(this.send(t, [id], { to: t.program.factory, data }));
    }
    await Promise.all(sends);
  }

  /** Sends one transaction and records its outcome on the decisions it carries out. */
  private async send(t: Target, decisions: string[], tx: { to: string; data: string }): Promise<void> {
    try {
      const receipt = await this.sender.send(t.program.chainId, tx);
      const ok = receipt.status === 1;
      await this.store.settle(t.program.id, decisions, ok ? "sent" : "failed", receipt.hash, ok ? null : "reverted");
    } catch (e) {
      this.logger.warn({ err: e, programId: t.program.id }, "redemption desk transaction failed");
      await this.store.settle(t.program.id, decisions, "failed", null, "the transaction failed; see the server log");
    }
  }
}
