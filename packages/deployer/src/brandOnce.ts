import { getAddress, ZeroAddress } from "ethers";
import type { Chain, ChainInfo } from "./chain.js";
import { DeployerError } from "./errors.js";
import { programFactoryAt } from "./release.js";
import { everyRelease } from "./store.js";
import type { DeploymentStore } from "./types.js";

/** Where a brand already lives on a chain. */
export interface BrandHome {
  programFactory: string;
  points: string;
}

/** Which ProgramFactories `brandHomes` asks besides the store's. */
export interface BrandHomesOptions {
  /** An adopted ProgramFactory. */
  programFactory?: string;
  /** Factories the caller knows from elsewhere (a service's program registry), asked first. */
  factories?: readonly string[];
  contractsDir?: string;
}

/**
 * Every ProgramFactory this tool knows on the chain: the caller's, each recorded release (every
 * version, also those whose code is no longer this build's), the factory of the brand's own
 * manifest and an adopted one. Only known factories are asked: anyone can deploy a
 * ProgramFactory copy and emit a ProgramDeployed event for any brand, so a chain-wide scan
 * would let a stranger block a brand.
 */
async function knownFactories(store: DeploymentStore, chainId: bigint, brand: string, opts: BrandHomesOptions) {
  const found = new Set<string>();
  for (const f of opts.factories ?? []) found.add(getAddress(f));
  for (const r of await everyRelease(store, chainId)) found.add(getAddress(r.programFactory));
  const own = await store.getProgram(chainId, brand);
  if (own) found.add(getAddress(own.programFactory));
  if (opts.programFactory) found.add(getAddress(opts.programFactory));
  return [...found];
}

/** The programs of `brand` on every known ProgramFactory of the chain (read-only). */
export async function brandHomes(
  chain: Chain,
  store: DeploymentStore,
  info: ChainInfo,
  brand: string,
  opts: BrandHomesOptions = {},
): Promise<BrandHome[]> {
  const homes: BrandHome[] = [];
  for (const address of await knownFactories(store, info.chainId, brand, opts)) {
    // A factory of a reset dev chain (or never deployed) holds nothing.
    if ((await chain.code(address)) === "0x") continue;
    const pf = programFactoryAt(address, chain, opts.contractsDir);
    const program = await chain.call("ProgramFactory.programOf", () => pf.programOf(brand));
    if (program.points !== ZeroAddress) homes.push({ programFactory: address, points: getAddress(program.points) });
  }
  return homes;
}

/**
 * Refuses (BRAND_EXISTS, nothing sent, nothing written) a deploy that would create `brand` a
 * second time on the chain: the brand has a program on a ProgramFactory other than the one this
 * run deploys with (`current`, undefined when this run would deploy a new release).
 */
export async function assertBrandOnce(
  chain: Chain,
  store: DeploymentStore,
  info: ChainInfo,
  brand: string,
  current: string | undefined,
  opts: BrandHomesOptions = {},
): Promise<void> {
  const homes = await brandHomes(chain, store, info, brand, opts);
  const elsewhere = homes.filter((h) => !current || h.programFactory !== getAddress(current));
  if (elsewhere.length === 0) return;
  const h = elsewhere[0]!;
  throw new DeployerError(
    "BRAND_EXISTS",
    `brand: "${brand}" already has a program on chain ${info.chainId} (Points ${h.points}, ProgramFactory ` +
      `${h.programFactory}); a brand exists once per chain: upgrade it, or rebuild a lost manifest with ` +
      `\`points-deployer import --brand ${brand}\``,
    { details: { brand, programFactory: h.programFactory, points: h.points } },
  );
}
