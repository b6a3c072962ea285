import type { Logger } from "pino";
import type { Db } from "../db/db.js";
import type { TxEngine } from "../engine/engine.js";
import type { ReorgEvent } from "../engine/inflight.js";
import type { Ctx } from "../context.js";
import type { TaskError } from "./taskError.js";

/** What the check reads of a registered program. */
interface Program {
  id: string;
  factory: string;
  points: string;
  deployTx: string | null;
  blockNumber: number | null;
  metadata: Record<string, unknown>;
}

export interface ReorgCheckDeps {
  db: Db;
  /** The program registry (its cache is cleared around the check). */
  programs: { listByChain(chainId: string): Promise<Program[]>; clearCache(): void };
  logger: Logger;
  /** Programs registered within this many blocks of the head are checked (the depth no reorg passes). */
  finalityBlocks: number;
}

/** Programs registered this close to the head are checked after a reorg (Ethereum's finality depth). */
export const REORG_CHECK_BLOCKS = 64;

/** The engines' `reorged` hook of a service: checks the chain's recent programs (see checkProgramsAfterReorg). */
export function programsAfterReorg(ctx: Ctx) {
  const deps = { db: ctx.db, programs: ctx.programs, logger: ctx.logger, finalityBlocks: REORG_CHECK_BLOCKS };
  return async (chainId: string, engine: TxEngine, event: ReorgEvent): Promise<void> => {
    await checkProgramsAfterReorg(deps, chainId, engine, event);
  };
}

/** What a check after a reorg found: programs whose code is there again, and those unregistered. */
export interface ReorgCheckResult {
  kept: string[];
  unregistered: string[];
}

/**
 * After the engine took back nonces a deep reorg removed (docs/architecture.md#nodes-and-networks): once the
 * transactions it sent again are final (or failed to be), every program of the chain registered within
 * `finalityBlocks` of the head is checked for code at its addresses. A program whose contracts are gone (its deploy
 * transaction was not among the kept bytes, or was refused) is unregistered and its onboarding task fails with
 * `PROGRAM_REORGED`: retrying it deploys the brand again. Bounded by the programs of the chain in that window.
 */
export async function checkProgramsAfterReorg(
  deps: ReorgCheckDeps,
  chainId: string,
  engine: TxEngine,
  event: ReorgEvent,
): Promise<ReorgCheckResult> {
  const lost = [...event.resent, ...event.filled];
  // A nonce that does not become final again fails its wait (TX_TIMEOUT): the code check below then decides.
  await Promise.allSettled(lost.map((n) => engine.wait(n, "sent again after a reorg")));
  const provider = engine.provider;
  const head = await provider.getBlockNumber();
  deps.programs.clearCache();
  const recent = (await deps.programs.listByChain(chainId)).filter(
    (p) => p.blockNumber === null || p.blockNumber > head - deps.finalityBlocks,
  );
  const result: ReorgCheckResult = { kept: [], unregistered: [] };
  for (const p of recent) {
    if (await hasCode(provider, p)) {
      result.kept.push(p.id);
      continue;
    }
    await unregister(deps, p);
    result.unregistered.push(p.id);
  }
  return result;
}

async function hasCode(provider: TxEngine["provider"], p: Program): Promise<boolean> {
  const codes = await Promise.all([p.factory, p.points].map((a) => provider.getCode(a)));
  return codes.every((c) => c !== "0x");
}

async function unregister(deps: ReorgCheckDeps, p: Program): Promise<void> {
  const taskId = typeof p.metadata.taskId === "string" ? p.metadata.taskId : null;
  const error: TaskError = {
    stage: "register",
    code: "PROGRAM_REORGED",
    message: `a reorg removed program ${p.id}'s contracts (deploy transaction ${p.deployTx}); retry the task to deploy it again`,
  };
  await deps.db.transaction(async (tx) => {
    await tx.query("DELETE FROM programs WHERE id = $1", [p.id]);
    if (taskId)
      await tx.query(
        `UPDATE onboarding_tasks SET status = 'failed', error = $2, program_id = NULL, updated_at = now()
         WHERE id = $1 AND status = 'succeeded'`,
        [taskId, JSON.stringify(error)],
      );
  });
  deps.programs.clearCache();
  deps.logger.error({ programId: p.id, taskId, deployTx: p.deployTx }, error.message);
}
