import {
  sourceTargets,
  type ManifestStore,
  type ProgramRecord,
  type Release,
  type SourceTarget,
} from "@points/deployer";
import { getAddress } from "ethers";
import type { Ctx } from "../context.js";
import { explorerNames } from "./explorers.js";
import { VerifyStore, type NewTarget } from "./store.js";

// A release's contracts are shared by every program on it: their constructor arguments are read
// once per service (per Ctx: two services in one process may see two chains with one id).
const releaseTargetsOf = new WeakMap<Ctx, Map<string, Promise<SourceTarget[]>>>();

/**
 * Queues the verification of a just-deployed program: its proxies and its release's
 * implementations and factories, on each explorer its chain has. With none, nothing is
 * queued and the program's view says verification is skipped.
 */
export async function queueVerification(
  ctx: Ctx,
  programId: string,
  record: ProgramRecord,
  // Only the release is read: any deployer store will do (onboarding passes its database store).
  store: Pick<ManifestStore, "getRelease">,
): Promise<void> {
  const chainId = record.chainId.toString();
  const chain = ctx.chains.get(chainId);
  // No explorer on the chain: nothing to queue; the view says verification is skipped.
  const explorers = explorerNames(chain.config);
  if (explorers.length === 0) return;
  const release = await store.getRelease(record.chainId, record.version);
  if (!release) throw new Error(`no release ${record.version} recorded on chain ${chainId}`);
  const key = `${chainId}:${release.programFactory}`;
  let releaseTargets = releaseTargetsOf.get(ctx);
  if (!releaseTargets) releaseTargetsOf.set(ctx, (releaseTargets = new Map()));
  let shared = releaseTargets.get(key);
  if (!shared) {
    shared = sourceTargets({ ...record, addresses: {} }, release, chain.provider);
    releaseTargets.set(key, shared);
    shared.catch(() => releaseTargets.delete(key));
  }
  const proxies = await sourceTargets(record, { ...release, contracts: {} as Release["contracts"] }, chain.provider);
  const names = new Map(Object.entries(record.addresses).map(([c, a]) => [getAddress(a!), c]));
  const targets: NewTarget[] = [...(await shared), ...proxies].map((t) => ({
    // "points" for the Points proxy, "release/Points" for the implementation behind it.
    contract: names.get(getAddress(t.address)) ?? `release/${t.artifact}`,
    address: getAddress(t.address),
    artifact: t.artifact,
    constructorArgs: t.constructorArgs,
  }));
  await new VerifyStore(ctx.db).enqueue(programId, chainId, targets, explorers);
}
