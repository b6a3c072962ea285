import { JsonRpcProvider, Network, Wallet, FetchRequest, getAddress } from "ethers";
import { isDevChainId as isDevChain } from "@points/contracts/program";
import { deployProgram, isDeployerError, type DeployConfig, type ProgramRecord } from "@points/deployer";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { DbManifestStore } from "./store.js";
import { FaultyStore } from "./fault.js";
import type { Task } from "./tasks.js";
import type { TaskRunner } from "./worker.js";

/** The executor's signer on a chain, on a provider that polls receipts at a fraction of a block. */
export function executorSigner(ctx: Ctx, chainId: string): Wallet {
  const chain = ctx.chains.get(chainId);
  const key = ctx.config.executorKey(chain.config.chainId);
  if (!key) {
    throw new ApiError("INTERNAL", `no executor key for chain ${chainId}: set EXECUTOR_PRIVATE_KEY`);
  }
  const request = new FetchRequest(chain.config.rpcUrl);
  request.timeout = ctx.config.rpcTimeoutMs;
  const provider = new JsonRpcProvider(request, Network.from(chain.config.chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  provider.pollingInterval = Math.max(50, Math.min(1000, Math.floor(chain.config.blockTimeMs / 4)));
  return new Wallet(key, provider);
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
  };
}

/**
 * Runs a task through the deployer library (the one code path that deploys programs). The
 * deployer asks the chain before sending anything, so a resumed task never deploys twice; its
 * `register` stage puts the program in the registry with the organization and token metadata.
 */
export function createRunner(ctx: Ctx): TaskRunner {
  return async (task: Task, signal: AbortSignal) => {
    const signer = executorSigner(ctx, task.chainId);
    let programId: string | undefined;
    const onProgram = async (record: ProgramRecord) => {
      if (signal.aborted) throw signal.reason;
      programId = await register(ctx, task, record);
    };
    const fault = task.attempts === 1 ? ctx.config.onboardingFault : undefined;
    const store = fault ? new FaultyStore(ctx.db, onProgram, fault) : new DbManifestStore(ctx.db, onProgram);
    const timeoutMs = ctx.config.rpcTimeoutMs;
    try {
      const record = await deployProgram(deployConfig(task), signer, store, {
        chain: { chainId: BigInt(task.chainId), dev: isDevChain(task.chainId) },
        // Every chain call is bounded: a dead RPC fails the task instead of hanging it.
        timeoutMs,
        receiptTimeoutMs: Math.max(60_000, 30 * ctx.chains.get(task.chainId).config.blockTimeMs),
      });
      programId ??= await register(ctx, task, record);
      return { programId };
    } catch (e) {
      throw await stageError(store, task, e);
    } finally {
      signer.provider?.destroy();
    }
  };
}

/**
 * The task's error: which stage failed and why, e.g. "validate failed (INSUFFICIENT_FUNDS):
 * signer: 0x... holds 0 wei but the transactions may cost up to ... wei".
 */
async function stageError(store: DbManifestStore, task: Task, e: unknown): Promise<Error> {
  const message = e instanceof Error ? e.message : String(e);
  const code = isDeployerError(e) ? ` (${e.code})` : "";
  const stages = await store.getStages({ chainId: BigInt(task.chainId), brand: task.brand }).catch(() => undefined);
  const failed = Object.entries(stages ?? {}).find(([, s]) => s?.status === "failed" || s?.status === "running");
  return new Error(failed ? `${failed[0]} failed${code}: ${message}` : `${message}${code}`, { cause: e });
}

/** Adds the program to the registry once; a resumed task finds it there. */
async function register(ctx: Ctx, task: Task, record: ProgramRecord): Promise<string> {
  const existing = await ctx.programs.find(record.brand);
  if (existing) {
    if (existing.factory !== getAddress(record.addresses.factory!)) {
      throw new Error(`brand ${record.brand} is registered with another factory`);
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
