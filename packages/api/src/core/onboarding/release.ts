import { Contract } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { Chain } from "@points/deployer";
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

/**
 * The deployer's `Chain` over the chain's provider, for the deployer's read-only checks run in a
 * request. Errors stay as the provider raised them: it has its own timeout, and the HTTP layer
 * maps a node's failures.
 */
class ProviderChain extends Chain {
  override call<T>(_what: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }
}

export function deployerChain(ctx: Ctx, chainId: string): Chain {
  return new ProviderChain(ctx.chains.get(chainId).provider);
}
