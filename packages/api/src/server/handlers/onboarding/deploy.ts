import type { Contract } from "ethers";
import { brandHomes } from "@points/deployer";
import type { OnboardingRequest, routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import { ownerOf } from "../../../core/auth/caller.js";
import { ApiError } from "../../../core/errors.js";
import { isDevChainId as isDevChain } from "@points/contracts/program";
import { deployerChain, releaseFactory } from "../../../core/onboarding/release.js";
import { DbManifestStore } from "../../../core/onboarding/store.js";
import { predictAddresses } from "../../../core/onboarding/view.js";
import { requireDeployApproval, requireDeployQuota } from "../../../core/onboarding/permission.js";
import { AssetList } from "../../../core/operator/assets.js";
import { requireProvenWallet } from "../../console/siwe.js";
import { idempotencyKeyOf } from "../../http/idempotency.js";

/**
 * On a chain that is not a dev chain the collateral and the oracle feed must be on the
 * operator's list: the executor never pays to deploy around a token it was not told to trust.
 */
async function requireListedAssets(ctx: Ctx, chainId: string, body: OnboardingRequest) {
  if (isDevChain(chainId)) return;
  const list = new AssetList(ctx.db);
  const issues: { field: string; message: string }[] = [];
  if (body.collateral && !(await list.has(chainId, "collateral", body.collateral.asset))) {
    issues.push({
      field: "body.collateral.asset",
      message: `is not on the operator's collateral list for chain ${chainId}`,
    });
  }
  if (body.oracle && !(await list.has(chainId, "feed", body.oracle.feed))) {
    issues.push({ field: "body.oracle.feed", message: `is not on the operator's feed list for chain ${chainId}` });
  }
  const [first] = issues;
  if (first) {
    throw new ApiError("INVALID_INPUT", `${first.field}: ${first.message}`, { issues });
  }
}

/**
 * The brand must be free on the chain too (a program deployed outside this service), under the newest release and
 * every earlier ProgramFactory release a program of the chain came from: each release keeps its own brand table, so
 * a new release alone would let a brand exist twice on one chain. The deployer's check, over the releases the
 * service recorded plus those of registered programs (only known ones: anyone can deploy a ProgramFactory copy).
 */
async function requireBrandFreeOnChain(ctx: Ctx, pf: Contract | null, chainId: string, brand: string) {
  // No release yet: nothing of the service's on the chain to ask (the release stage deploys the first).
  if (!pf) return;
  const homes = await brandHomes(
    deployerChain(ctx, chainId),
    new DbManifestStore(ctx.db),
    { chainId: BigInt(chainId) },
    brand,
    {
      factories: await ctx.programs.releasesOnChain(chainId),
    },
  );
  const [home] = homes;
  if (home) {
    throw new ApiError("CONFLICT", `brand ${brand} already has a program on chain ${chainId}`, {
      reason: "BRAND_TAKEN",
      programFactory: home.programFactory,
    });
  }
}

/**
 * Queues a program deployment (docs/deployment.md#onboarding-over-http) and answers 202 at once with the task id and
 * the predicted addresses. The worker does the chain work; this handler only validates, and
 * every check that can refuse the request runs before the quota is counted or the brand
 * reserved (a refused deploy costs nothing); the quota is counted with the insert, under a lock.
 */
export const onboardingDeploy: Handler<typeof routes.onboardingDeploy> = async (
  { body, caller, headers, http },
  ctx,
) => {
  await requireDeployApproval(ctx, caller);
  await requireProvenWallet(ctx, caller, http.sessionToken, body.deployer);
  const chainId = String(body.chainId);
  if (!ctx.chains.has(chainId)) {
    const known = ctx.chains.list().map((c) => c.chainId);
    throw new ApiError(
      "INVALID_INPUT",
      `body.chainId: chain ${chainId} is not configured (known: ${known.join(", ")})`,
      {
        issues: [{ field: "body.chainId", message: "is not a configured chain" }],
      },
    );
  }
  if (!body.collateral && !isDevChain(chainId)) {
    throw new ApiError(
      "INVALID_INPUT",
      `body.collateral.asset: required on chain ${chainId} (mock collateral exists only on dev chains)`,
      {
        issues: [{ field: "body.collateral.asset", message: "is required on this chain" }],
      },
    );
  }
  if (BigInt(body.oracle?.lowerPeg ?? 0) > BigInt(body.oracle?.upperPeg ?? 0)) {
    // The Oracle's initializer reverts (InvalidPegBand): a chain precondition, not a shape error.
    throw new ApiError("WOULD_REVERT", "body.oracle.lowerPeg: must not exceed upperPeg", {
      issues: [{ field: "body.oracle.lowerPeg", message: "must not exceed upperPeg" }],
    });
  }
  await requireListedAssets(ctx, chainId, body);
  const idempotencyKey = idempotencyKeyOf(headers);
  // Early and unlocked, so an owner over quota costs no chain reads; counted again with the insert.
  await requireDeployQuota(ctx, caller, idempotencyKey);
  const pf = await releaseFactory(ctx, chainId);
  await requireBrandFreeOnChain(ctx, pf, chainId, body.brand);
  const predicted = await predictAddresses(pf, body.brand, Boolean(body.oracle));
  const owner = ownerOf(caller) ?? null;
  const awaitApproval = !ctx.chains.get(chainId).config.testnet && !isDevChain(chainId);
  const { task } = await ctx.tasks.create({
    owner,
    idempotencyKey,
    request: body,
    predicted,
    awaitApproval,
    quotaPerDay: ctx.config.deploy.quotaPerDay,
  });
  ctx.pokeWorker();
  return { taskId: task.id, status: task.status, predicted: task.predicted as never };
};
