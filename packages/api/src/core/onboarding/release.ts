import { Contract } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import type { Ctx } from "../context.js";
import { DbManifestStore } from "./store.js";

/**
 * The ProgramFactory of the chain's newest release, on the chain's provider; null while the
 * chain has no release yet (the first task's release stage deploys one). A request looks it
 * up once and passes it on.
 */
export async function releaseFactory(ctx: Ctx, chainId: string): Promise<Contract | null> {
  const release = await new DbManifestStore(ctx.db).getRelease(BigInt(chainId));
  if (!release) return null;
  return new Contract(release.programFactory, INTERFACES.programFactory, ctx.chains.get(chainId).provider);
}
