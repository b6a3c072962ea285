import { getAddress, type JsonRpcProvider } from "ethers";
import type { ExecutorWallet } from "@points/signers";
import { isDevChainId as isDevChain, isRpcUnreachable } from "@points/contracts/program";
import { deployProgram, type DeployConfig, type ProgramRecord, type StageContext } from "@points/deployer";
import type { TaskStageName } from "@points/schema";
import type { Ctx } from "../../core/context.js";
import type { Db } from "../../core/db/db.js";
import { ApiError } from "../../core/errors.js";
import { assertChainId, rpcProvider } from "../../core/chain/rpc.js";
import { DbManifestStore } from "../../core/onboarding/store.js";
import { DeskStore } from "../../core/desk/store.js";
import { taskFailure } from "../../core/onboarding/taskError.js";
import type { Task } from "../../core/onboarding/tasks.js";
import type { TaskRunner } from "./worker.js";
import type { Engines } from "../../core/engine/registry.js";
import { ensureOperator } from "../../core/engine/operators.js";
import { queueVerification } from "../../core/verify/enqueue.js";
import { inSpan } from "../../core/tracing/spans.js";

/** An executor key's signer on a chain (`lane`: which of its keys), polling receipts at a fraction of a block. */
export function executorSigner(ctx: Ctx, chainId: string, lane = 0): ExecutorWallet {
  const chain = ctx.chains.get(chainId);
  if (!ctx.signers.keys(chain.config.chainId)[lane]) {
    throw new ApiError("INTERNAL", `no executor key for chain ${chainId}: set EXECUTOR_PRIVATE_KEY`);
  }
  const provider = rpcProvider(chain.config, ctx.config.rpcTimeoutMs);
  provider.pollingInterval = Math.max(50, Math.min(1000, Math.floor(chain.config.blockTimeMs / 4)));
  return ctx.signers.wallet(chain.config.chainId, lane, provider);
}

export function deployConfig(task: Task): DeployConfig {
  const r = task.request;
  return {
    brand: r.brand,
    tokenName: r.token.name,
    tokenSymbol: r.token.symbol,
    collateralAsset: r.collateral?.asset ?? "mock",
    oracle: r.oracle
      ? { feed: r.oracle.feed, heartbeat: r.oracle.heartbeat, lowerPeg: r.oracle.lowerPeg, upperPeg: r.oracle.upperPeg }
      : undefined,
    deployer: r.deployer,
    // A desk that is off from birth: the executor gets no EXECUTOR_ROLE (a manager may grant it later).
    ...(r.deskPolicy === "off" ? { executorRole: false } : {}),
  };
}

/** Makes the deployer's store of a task's attempt (a seam for tests that inject failures). */
export type StoreFactory = (db: Db, task: Task) => DbManifestStore;

const dbStore: StoreFactory = (db) => new DbManifestStore(db);

/**
 * Runs a task through the deployer library (the one code path that deploys programs), then
 * puts the program it returns in the registry. The deployer asks the chain before sending
 * anything, so a resumed task never deploys twice; a task interrupted before the registry
 * write gets the same record back on its retry and registers it then.
 */
export function createRunner(
  ctx: Ctx,
  storeFor: StoreFactory = dbStore,
  engines?: Engines,
  /** Called once a program's contracts are queued for source verification. */
  onVerifyQueued?: () => void,
): TaskRunner {
  const run = async (task: Task, signal: AbortSignal) => {
    // With several executor keys, the task's own lane sends; the first key stays the program's executor.
    const laneOf = engines?.laneOf(task.chainId, task.id);
    const signer = executorSigner(ctx, task.chainId, laneOf?.lane ?? 0);
    const store = storeFor(ctx.db, task);
    const stageCtx = { chainId: BigInt(task.chainId), brand: task.brand };
    // With an engine, tasks of a chain run side by side and share blocks (src/engine/).
    const engine = laneOf?.engine;
    const first = engines?.get(task.chainId);
    let record: ProgramRecord;
    try {
      if (engine) {
        try {
          await engine.start();
          // Below the balance threshold the task waits here (its view says why) instead of failing.
          await engine.whenFunded();
        } catch (e) {
          // A dead RPC is the deployer's to report: its validate stage fails with CHAIN_UNAVAILABLE.
          if (!isRpcUnreachable(e)) throw e;
        }
      }
      // The node may have been swapped since start: ask again before anything is signed. A node
      // that does not answer is left to the deployer, which fails its validate stage on it.
      await assertChainId(signer.provider as JsonRpcProvider, ctx.chains.get(task.chainId).config).catch((e) => {
        if (!isRpcUnreachable(e)) throw e;
      });
      // A chain's first release is deployed by one task alone; the others then find it.
      const released = engines && (await store.getRelease(BigInt(task.chainId)));
      const deploy = async () => {
        // A key deploys once it is an operator (the first key, the ProgramFactory's admin, grants it).
        const release = engines && engine && (released || (await store.getRelease(BigInt(task.chainId))));
        if (release) await ensureOperator(ctx, engines!, task.chainId, release.programFactory, engine!.from);
        return deployProgram(deployConfig(task), signer, store, {
          sender: engine,
          // The first key administers the ProgramFactory and holds EXECUTOR_ROLE, whichever key sends.
          ...(first ? { admin: first.from, executor: first.from } : {}),
          chain: { chainId: BigInt(task.chainId), dev: isDevChain(task.chainId) },
          // Every chain call is bounded: a dead RPC fails the task instead of hanging it.
          timeoutMs: ctx.config.rpcTimeoutMs,
          // No executor transaction over the operator's cap is signed (GAS_CAP).
          maxGasPerTx: BigInt(ctx.config.deploy.maxGasPerTx),
          receiptTimeoutMs: Math.max(60_000, 30 * ctx.chains.get(task.chainId).config.blockTimeMs),
        });
      };
      record = engines && !released ? await engines.alone(task.chainId, deploy) : await deploy();
    } catch (e) {
      throw taskFailure(await failedStage(store, stageCtx), e);
    } finally {
      signer.provider?.destroy();
    }
    // A worker that lost its lease leaves the registry to the one that took the task over.
    if (signal.aborted) throw signal.reason;
    let programId: string;
    try {
      programId = await register(ctx, task, record);
      // The desk policy chosen at deploy, set once (a resumed task finds it set and leaves it).
      const policy = task.request.deskPolicy;
      if (policy === "automatic" || policy === "manual")
        await new DeskStore(ctx.db).setPolicy(programId, policy, 0, task.request.deployer);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await store.stageFinished(stageCtx, "register", "failed", message).catch(() => undefined);
      throw taskFailure("register", e);
    }
    // Source verification runs later, on its own job: queueing it neither holds up nor fails the
    // task (not awaited: the task is done once registered).
    void queueVerification(ctx, programId, record, store).then(onVerifyQueued, (e) =>
      ctx.logger.warn({ err: e, programId }, "could not queue the program's source verification"),
    );
    return { programId };
  };
  // One span per task attempt, with its ids (packages/api/README.md#traces).
  return (task, signal) =>
    inSpan(
      "onboarding.task",
      { "points.task_id": task.id, "points.chain_id": task.chainId, "points.brand": task.brand },
      async (span) => {
        const done = await run(task, signal);
        span.setAttribute("points.program", done.programId);
        return done;
      },
    );
}

/** The stage a failed deployProgram call stopped in, as its store recorded it. */
async function failedStage(store: DbManifestStore, ctx: StageContext): Promise<TaskStageName | null> {
  const stages = await store.getStages(ctx).catch(() => undefined);
  const failed = Object.entries(stages ?? {}).find(([, s]) => s?.status === "failed" || s?.status === "running");
  return failed ? (failed[0] as TaskStageName) : null;
}

/** Adds the program to the registry; a task resumed after this write finds it there. */
async function register(ctx: Ctx, task: Task, record: ProgramRecord): Promise<string> {
  const existing = await ctx.programs.findByBrand(record.chainId.toString(), record.brand);
  if (existing) {
    if (existing.factory !== getAddress(record.addresses.factory!)) {
      throw new ApiError("CONFLICT", `brand ${record.brand} is registered with another factory`);
    }
    return existing.id;
  }
  const a = record.addresses;
  const saved = await ctx.programs.insert({
    chainId: record.chainId.toString(),
    brand: record.brand,
    factory: a.factory!,
    points: a.points!,
    collateralVault: a.collateralVault!,
    pspVault: a.pspVault!,
    oracle: a.oracle ?? null,
    programFactory: record.programFactory,
    deployTx: record.txHash,
    blockNumber: record.blockNumber,
    metadata: {
      organization: task.request.organization,
      token: task.request.token,
      deployer: task.request.deployer,
      taskId: task.id,
      collateralAsset: record.collateralAsset,
    },
  });
  return saved.id;
}
