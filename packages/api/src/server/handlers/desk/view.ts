import type { Ctx } from "../../../core/context.js";
import type { Target } from "../../../core/program/target.js";
import { read } from "../../../core/program/target.js";
import { executorAddress, executorStatus } from "../../../core/desk/executor.js";
import { pendingRequests } from "../../../core/desk/queue.js";
import { DeskStore, type DeskDecision } from "../../../core/desk/store.js";
import { loadPause } from "../../../core/engine/status.js";
import { DeskBounds } from "../../../core/desk/bounds.js";

const decisionView = (d: DeskDecision | undefined) =>
  d
    ? {
        decision: d.decision,
        reason: d.reason,
        decidedBy: d.decidedBy,
        status: d.status,
        txHash: d.txHash,
        error: d.error,
      }
    : null;

/** The desk of a program as GET answers it: policy, executor status and the pending queue. */
export async function deskView(ctx: Ctx, t: Target) {
  const store = new DeskStore(ctx.db);
  const { policy, version } = await store.policy(t.program.id);
  const executor = executorAddress(ctx, t.program.chainId) ?? null;
  const bounds = new DeskBounds(ctx.db, ctx.config.desk);
  const [status, { pending }, decisions, waiting, { overrides: _overrides, ...budget }, holds] = await Promise.all([
    read(t, "factory", () => executorStatus(t, executor ?? undefined)),
    pendingRequests(t),
    store.decisions(t.program.id),
    loadPause(ctx.db, t.program.chainId, executor ?? undefined),
    bounds.budget(t.program.id),
    bounds.holds(t.program.id),
  ]);
  const open = new Set(pending.map((p) => p.requestId));
  const held = [...holds]
    .filter(([id]) => open.has(id))
    .map(([requestId, h]) => ({ requestId, until: new Date(h.nextAt).toISOString(), reason: h.reason }));
  const byId = new Map(decisions.map((d) => [d.requestId, d]));
  return {
    programId: t.program.id,
    chainId: t.program.chainId,
    factory: t.program.factory,
    policy,
    version,
    executor,
    status: policy === "off" && status === "ready" ? ("off" as const) : status,
    waiting,
    pending: pending.map((p) => ({ ...p, decision: decisionView(byId.get(p.requestId)) })),
    bounds: { ...budget, held },
  };
}

export { decisionView };
