import { Contract, getAddress, type Provider } from "ethers";
import { artifactNames, codeMatches, loadArtifact, type Artifact } from "./artifacts.js";
import { Chain, IMPLEMENTATION_SLOT, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { layoutDiff, type LayoutRow } from "./layouts.js";
import { PROGRAM_CONTRACTS, type ProgramContract, type ProgramRecord, type RecordedLayout } from "./types.js";
import { assertCrossCallsKept } from "./cross-calls.js";
import { assertUpgradeSafe, storageLayoutOf, type SafetyOptions } from "./upgrade-safety.js";
import { programContract } from "./verify.js";

/** A new implementation: an artifact name of @points/contracts, an artifact, or an ethers ContractFactory. */
export type ImplementationSource = string | Artifact | { bytecode: string };

/** OpenZeppelin's Initializable storage (ERC-7201 "openzeppelin.storage.Initializable"). */
export const INITIALIZABLE_SLOT = "0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00";

export interface PlanOptions extends ChainOptions, SafetyOptions {
  /** The new implementation is already deployed here (checked like a reused one). */
  implementation?: string;
  /** Calldata for upgradeToAndCall; initializer checks then apply to the new version. */
  call?: string;
}

/** What an upgrade would do, found by reads only. */
export interface UpgradePlan {
  contract: ProgramContract;
  proxy: string;
  next: Artifact;
  /** What the proxy runs on chain, and that implementation's recorded layout. */
  oldImplementation: string;
  current: RecordedLayout;
  /** The deployed layout and the new one, position by position. */
  layout: LayoutRow[];
  /** The DEFAULT_ADMIN_ROLE holder, who must send upgradeToAndCall. */
  admin: string;
  /** An implementation with the new bytecode already on chain (given, deployed or proposed before). */
  reuse?: string;
  call: string;
}

export function contractKey(name: string): ProgramContract {
  const key = PROGRAM_CONTRACTS.find((k) => k.toLowerCase() === name.toLowerCase());
  if (!key)
    throw new DeployerError("INVALID_CONFIG", `contract: "${name}" is not one of ${PROGRAM_CONTRACTS.join(", ")}`);
  return key;
}

export function resolveArtifact(source: ImplementationSource, dir?: string): Artifact {
  if (typeof source === "string") return loadArtifact(source, dir);
  if ("contractName" in source && "deployedBytecode" in source) return source as Artifact;
  // A ContractFactory: find the artifact with the same creation code, for its build-info.
  const bytecode = source.bytecode.toLowerCase();
  for (const name of artifactNames(dir)) {
    const a = loadArtifact(name, dir);
    if (a.bytecode.toLowerCase() === bytecode) return a;
  }
  throw new DeployerError(
    "ARTIFACTS_MISSING",
    "implementation: no artifact of @points/contracts has this bytecode, so its storage layout is unknown",
  );
}

/**
 * Why the implementation at `address` cannot serve as `next` (undefined: it can): its code is
 * another build, its proxiableUUID is not the ERC-1967 slot, or its initializers are not disabled.
 */
async function deployedProblem(chain: Chain, address: string, next: Artifact): Promise<string | undefined> {
  if (!codeMatches(next, await chain.code(address))) return `it does not hold ${next.contractName}`;
  const c = new Contract(address, ["function proxiableUUID() view returns (bytes32)"], chain.provider);
  const uuid = await chain.call(`${address}.proxiableUUID`, () => c.proxiableUUID()).catch(() => undefined);
  if (uuid !== IMPLEMENTATION_SLOT) return "its proxiableUUID() is not the ERC-1967 implementation slot";
  const initialized = BigInt(await chain.storageAt(address, INITIALIZABLE_SLOT)) & ((1n << 64n) - 1n);
  if (initialized !== (1n << 64n) - 1n) return "its initializers are not disabled";
  return undefined;
}

/** Addresses the program ran or was proposed before: where the same bytecode may already live. */
function knownImplementations(p: ProgramRecord): string[] {
  const all = [
    ...p.upgrades.map((u) => u.newImplementation),
    ...Object.values(p.layouts ?? {}).map((l) => l.address),
    ...Object.values(p.contracts).map((c) => c!.implementation),
  ];
  return [...new Set(all.map((a) => getAddress(a)))];
}

/**
 * Reads what the proxy runs on chain and checks the upgrade against it: the implementation in
 * the ERC-1967 slot must be the recorded one and have a recorded layout (keyed by its runtime
 * bytecode hash), and the new implementation must be UUPS-safe and extend that layout. Sends
 * nothing; throws VERIFY_FAILED or UNSAFE_UPGRADE with what to do.
 */
export async function planUpgrade(
  program: ProgramRecord,
  contractName: string,
  source: ImplementationSource,
  provider: Provider,
  opts: PlanOptions = {},
): Promise<UpgradePlan> {
  const dir = opts.contractsDir;
  const key = contractKey(contractName);
  const rec = program.contracts[key];
  if (!rec) throw new DeployerError("INVALID_CONFIG", `contract: program ${program.brand} has no ${key}`);
  const next = resolveArtifact(source, dir);
  const call = opts.call ?? "0x";
  const chain = new Chain(provider, opts);
  const sync = `points-deployer sync --brand ${program.brand} (syncProgram in the library)`;

  const oldImplementation = await chain.implementationOf(rec.proxy);
  if (oldImplementation !== getAddress(rec.implementation)) {
    throw new DeployerError(
      "VERIFY_FAILED",
      `${key}: the chain runs ${oldImplementation}, the record has ${rec.implementation}; refresh the record first: ${sync}`,
    );
  }
  const codeHash = await chain.codeHash(oldImplementation);
  const current = program.layouts?.[codeHash];
  if (!current) {
    throw new DeployerError(
      "UNSAFE_UPGRADE",
      `${key}: no storage layout is recorded for the implementation it runs (${oldImplementation}, code hash ${codeHash}); ` +
        `import it from the build it was deployed from: points-deployer sync --brand ${program.brand} --artifact ${key}=<ContractName> [--contracts-dir <that build>]`,
      { details: { contract: key, implementation: oldImplementation, codeHash } },
    );
  }
  assertUpgradeSafe(current, next, { ...opts, initializerRuns: call !== "0x" });
  // Layout-safe is not enough: the other program contracts must still find what they call.
  assertCrossCallsKept(key, next, dir);

  const proxy = programContract(program, key, provider, dir);
  const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => proxy.defaultAdmin()));
  let reuse: string | undefined;
  if (opts.implementation) {
    reuse = getAddress(opts.implementation);
    const problem = await deployedProblem(chain, reuse, next);
    if (problem) throw new DeployerError("INVALID_CONFIG", `implementation: ${reuse}: ${problem}`);
  } else {
    for (const candidate of knownImplementations(program)) {
      if (candidate === oldImplementation) continue;
      if (!(await deployedProblem(chain, candidate, next))) {
        reuse = candidate;
        break;
      }
    }
  }
  return {
    contract: key,
    proxy: rec.proxy,
    next,
    oldImplementation,
    current,
    layout: layoutDiff(current.layout, storageLayoutOf(next, dir)),
    admin,
    ...(reuse ? { reuse } : {}),
    call,
  };
}

/** What `validateUpgrade` checked; it throws when the upgrade would be refused. */
export interface ValidationReport {
  contract: ProgramContract;
  oldImplementation: string;
  /** The artifact the recorded layout belongs to. */
  deployedArtifact: string;
  newArtifact: string;
  layout: LayoutRow[];
  /** An implementation with the new bytecode already on chain, if any. */
  reuse?: string;
}

/**
 * The layout and safety checks of an upgrade on their own, against a program on a chain (for
 * CI): reads only, needs no key. Throws what `upgrade` would throw before sending anything.
 */
export async function validateUpgrade(
  program: ProgramRecord,
  contractName: string,
  source: ImplementationSource,
  provider: Provider,
  opts: PlanOptions = {},
): Promise<ValidationReport> {
  const plan = await planUpgrade(program, contractName, source, provider, opts);
  return {
    contract: plan.contract,
    oldImplementation: plan.oldImplementation,
    deployedArtifact: plan.current.artifact,
    newArtifact: plan.next.contractName,
    layout: plan.layout,
    ...(plan.reuse ? { reuse: plan.reuse } : {}),
  };
}
