import { getAddress, type Contract } from "ethers";
import { PROGRAM_STAGES } from "@points/contracts/program";
import type { Ctx } from "../context.js";
import { DbManifestStore } from "./store.js";
import { loadPause } from "../engine/status.js";
import { laneIndex } from "../engine/registry.js";
import type { Task } from "./tasks.js";
import { verificationView } from "../verify/view.js";

/**
 * Addresses the brand's program will have, from the release's ProgramFactory `pf`; null while
 * the chain has no release yet (the task's release stage deploys one).
 */
export async function predictAddresses(pf: Contract | null, brand: string, withOracle: boolean) {
  if (!pf) return null;
  const p = await pf.getFunction("predictAddresses")(brand);
  return {
    points: getAddress(p.points),
    factory: getAddress(p.factory),
    collateralVault: getAddress(p.collateralVault),
    pspVault: getAddress(p.pspVault),
    oracle: withOracle ? getAddress(p.oracle) : null,
  };
}

/** A task as the API returns it: status, each persisted stage, and on success the program. */
export async function taskView(ctx: Ctx, task: Task) {
  const chainConfig = ctx.chains.has(task.chainId) ? ctx.chains.get(task.chainId).config : undefined;
  const explorer = chainConfig?.explorerUrl?.replace(/\/$/, "") ?? null;
  const store = new DbManifestStore(ctx.db);
  const ctxKey = { chainId: BigInt(task.chainId), brand: task.brand };
  const recorded = (await store.getStages(ctxKey)) ?? {};
  const stages = PROGRAM_STAGES.map((name) => {
    const s = recorded[name];
    return {
      name,
      status: s ? (s.status === "running" && task.status === "failed" ? "failed" : s.status) : "pending",
      startedAt: s?.startedAt ?? null,
      finishedAt: s?.finishedAt ?? null,
      transactions: (s?.transactions ?? []).map((t) => ({
        hash: t.hash,
        description: t.description,
        explorerUrl: explorer ? `${explorer}/tx/${t.hash}` : null,
      })),
      addresses: s?.addresses ?? {},
      error: s?.error ?? null,
    } as const;
  });
  let program = null;
  if (task.programId) {
    const p = await ctx.programs.find(task.programId);
    const record = await store.getProgram(BigInt(task.chainId), task.brand);
    if (p) {
      const addresses = {
        points: p.points,
        factory: p.factory,
        collateralVault: p.collateralVault,
        pspVault: p.pspVault,
        oracle: p.oracle,
      };
      program = {
        id: p.id,
        addresses,
        explorer: explorer
          ? Object.fromEntries(
              Object.entries(addresses).flatMap(([k, v]) => (v ? [[k, `${explorer}/address/${v}`]] : [])),
            )
          : null,
        rolesAtBirth: (record?.roles ?? {}) as Record<string, Record<string, string[]>>,
        verification: await verificationView(ctx, p.id, task.chainId),
      };
    }
  }
  return {
    taskId: task.id,
    status: task.status,
    brand: task.brand,
    chain: {
      chainId: task.chainId,
      name: chainConfig?.name ?? `chain ${task.chainId}`,
      testnet: chainConfig?.testnet ?? false,
      explorerUrl: chainConfig?.explorerUrl ?? null,
    },
    predicted: task.predicted as never,
    stages,
    attempts: task.attempts,
    error: task.error,
    // The executor's pause concerns only tasks that still have to send (src/engine/status.ts).
    waiting:
      task.status === "queued" || task.status === "running"
        ? await loadPause(ctx.db, task.chainId, laneAddress(ctx, task))
        : null,
    organization: task.request.organization,
    token: task.request.token,
    deployer: getAddress(task.request.deployer),
    program,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

/** The executor key the task sends with (its lane), whose pause it shows; undefined without a key. */
function laneAddress(ctx: Ctx, task: Task): string | undefined {
  const keys = ctx.signers.addresses(Number(task.chainId));
  return keys.length ? keys[laneIndex(task.id, keys.length)] : undefined;
}
