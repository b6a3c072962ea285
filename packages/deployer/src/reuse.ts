import { Contract, getAddress } from "ethers";
import { codeMatches, loadArtifact, type Artifact } from "./artifacts.js";
import { Chain, IMPLEMENTATION_SLOT } from "./chain.js";
import { everyRelease } from "./store.js";
import { IMPLEMENTATION_ARTIFACTS, PROGRAM_CONTRACTS, type DeploymentStore, type ProgramContract } from "./types.js";

/** OpenZeppelin's Initializable storage (ERC-7201 "openzeppelin.storage.Initializable"). */
export const INITIALIZABLE_SLOT = "0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00";

/** An implementation already on chain and whose it is: "given", "program <brand>" or "release <version>". */
export interface KnownImplementation {
  address: string;
  from: string;
}

/**
 * Why the implementation at `address` cannot serve as `next` (undefined: it can): its code is
 * another build, its proxiableUUID is not the ERC-1967 slot, or its initializers are not disabled.
 */
export async function deployedProblem(chain: Chain, address: string, next: Artifact): Promise<string | undefined> {
  if (!codeMatches(next, await chain.code(address))) return `it does not hold ${next.contractName}`;
  const c = new Contract(address, ["function proxiableUUID() view returns (bytes32)"], chain.provider);
  const uuid = await chain.call(`${address}.proxiableUUID`, () => c.proxiableUUID()).catch(() => undefined);
  if (uuid !== IMPLEMENTATION_SLOT) return "its proxiableUUID() is not the ERC-1967 implementation slot";
  const initialized = BigInt(await chain.storageAt(address, INITIALIZABLE_SLOT)) & ((1n << 64n) - 1n);
  if (initialized !== (1n << 64n) - 1n) return "its initializers are not disabled";
  return undefined;
}

/** Adds `addresses` not listed yet, each with whose it is (the first owner named keeps it). */
export function addKnown(found: Map<string, string>, addresses: string[], from: string): void {
  for (const a of addresses) if (!found.has(getAddress(a))) found.set(getAddress(a), from);
}

/**
 * The implementations the chain's releases in the store deployed or reused (and the addresses of
 * their recorded layouts), oldest release first, so an implementation a release reused is named
 * for the release that deployed it; `skipVersion`'s own release is left out.
 */
export async function releaseImplementations(
  store: DeploymentStore,
  chainId: bigint,
  skipVersion?: string,
): Promise<Map<string, string>> {
  const releases = await everyRelease(store, chainId);
  const found = new Map<string, string>();
  for (const r of releases) {
    if (r.version === skipVersion) continue;
    addKnown(
      found,
      [...Object.values(r.implementations), ...Object.values(r.layouts ?? {}).map((l) => l.address)],
      `release ${r.version}`,
    );
  }
  return found;
}

/** The first of `candidates` that can serve as `next` (same checks as a given implementation). */
export async function firstReusable(
  chain: Chain,
  candidates: KnownImplementation[],
  next: Artifact,
  skip?: string,
): Promise<KnownImplementation | undefined> {
  for (const candidate of candidates) {
    if (candidate.address === skip) continue;
    if (!(await deployedProblem(chain, candidate.address, next))) return candidate;
  }
  return undefined;
}

/**
 * The implementations a new release of `version` need not deploy: for each program contract, an
 * implementation an earlier release of the chain in the store deployed whose runtime code is this
 * build's (immutables masked), with the ERC-1967 proxiableUUID and its initializers disabled.
 * Only the store's releases are searched: code elsewhere on the chain is nobody's to vouch for.
 * Reads only, and the same answer on every call while the store's releases are unchanged, so a
 * resumed release plans the same transactions.
 */
export async function reusableImplementations(
  chain: Chain,
  store: DeploymentStore,
  chainId: bigint,
  version: string,
  dir?: string,
): Promise<Partial<Record<ProgramContract, KnownImplementation>>> {
  const candidates = [...(await releaseImplementations(store, chainId, version))].map(([address, from]) => ({
    address,
    from,
  }));
  const reused: Partial<Record<ProgramContract, KnownImplementation>> = {};
  // Each candidate's code is read once; only those holding a contract's code are checked further.
  const codes: string[] = [];
  for (const c of candidates) codes.push(await chain.code(c.address));
  for (const key of PROGRAM_CONTRACTS) {
    const next = loadArtifact(IMPLEMENTATION_ARTIFACTS[key], dir);
    const found = await firstReusable(
      chain,
      candidates.filter((_, i) => codeMatches(next, codes[i])),
      next,
    );
    if (found) reused[key] = found;
  }
  return reused;
}
