import { getAddress, keccak256, type Provider } from "ethers";
import { artifactNames, codeMatches, loadArtifact, type Artifact } from "./artifacts.js";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError, isDeployerError } from "./errors.js";
import { layoutDiff, type LayoutRow } from "./layouts.js";
import {
  PROGRAM_CONTRACTS,
  type DeploymentStore,
  type ProgramContract,
  type ProgramRecord,
  type RecordedLayout,
} from "./types.js";
import { assertCrossCallsKept } from "./crossCalls.js";
import { addKnown, deployedProblem, firstReusable, releaseImplementations, type KnownImplementation } from "./reuse.js";
import { assertUpgradeSafe, storageLayoutOf, type SafetyOptions } from "./upgradeSafety.js";
import { programContract } from "./verify.js";

export { INITIALIZABLE_SLOT } from "./reuse.js";

/** A new implementation: an artifact name of @points/contracts, an artifact, or an ethers ContractFactory. */
export type ImplementationSource = string | Artifact | { bytecode: string };

export interface PlanOptions extends ChainOptions, SafetyOptions {
  /** The new implementation is already deployed here (checked like a reused one). */
  implementation?: string;
  /** Calldata for upgradeToAndCall; initializer checks then apply to the new version. */
  call?: string;
  /**
   * The chain's manifests. Read for the implementations the chain's other programs and releases
   * deployed: one holding the new build's code is reused instead of deploying a second copy.
   */
  store?: DeploymentStore;
}

/** What an upgrade would do, found by reads only. */
export interface UpgradePlan {
  contract: ProgramContract;
  proxy: string;
  next: Artifact;
  /** What the proxy runs on chain, and that implementation's recorded layout. */
  oldImplementation: string;
  current: RecordedLayout;
  /** The deployed layout and the new one, variable by variable, each row safe or not and why. */
  layout: LayoutRow[];
  /** The DEFAULT_ADMIN_ROLE holder, who must send upgradeToAndCall. */
  admin: string;
  /** An implementation with the new bytecode already on chain (given, deployed or proposed before). */
  reuse?: string;
  /** Whose implementation `reuse` is: "given", "program <brand>" or "release <version>". */
  reusedFrom?: string;
  /**
   * The proxy already runs the new build: no call asked, the running implementation's code is the
   * new build's (immutables masked) and every variable of the layout is unchanged.
   */
  alreadyRunning: boolean;
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

/** Addresses a program ran or was proposed before: where the same bytecode may already live. */
function implementationsOf(p: ProgramRecord): string[] {
  return [
    ...p.upgrades.map((u) => u.newImplementation),
    ...Object.values(p.layouts ?? {}).map((l) => l.address),
    ...Object.values(p.contracts).map((c) => c!.implementation),
  ];
}

/**
 * Where the new build may already be deployed on the chain, each with whose it is: the program's
 * own implementations first, then those of the chain's other programs and releases in the store.
 * Only the manifests this tool knows: code elsewhere on the chain is nobody's to vouch for.
 */
async function knownImplementations(program: ProgramRecord, store?: DeploymentStore): Promise<KnownImplementation[]> {
  const found = new Map<string, string>();
  addKnown(found, implementationsOf(program), `program ${program.brand}`);
  if (store) {
    for (const other of (await store.getPrograms?.(program.chainId)) ?? []) {
      if (other.brand !== program.brand) addKnown(found, implementationsOf(other), `program ${other.brand}`);
    }
    for (const [address, from] of await releaseImplementations(store, program.chainId)) {
      addKnown(found, [address], from);
    }
  }
  return [...found].map(([address, from]) => ({ address, from }));
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
  const runningCode = await chain.code(oldImplementation);
  const codeHash = keccak256(runningCode);
  const current = program.layouts?.[codeHash];
  if (!current) {
    throw new DeployerError(
      "UNSAFE_UPGRADE",
      `${key}: no storage layout is recorded for the implementation it runs (${oldImplementation}, code hash ${codeHash}); ` +
        `import it from the build it was deployed from: points-deployer sync --brand ${program.brand} --artifact ${key}=<ContractName> [--contracts-dir <that build>]`,
      { details: { contract: key, implementation: oldImplementation, codeHash } },
    );
  }
  const layout = layoutDiff(current.layout, storageLayoutOf(next, dir));
  try {
    assertUpgradeSafe(current, next, { ...opts, initializerRuns: call !== "0x" });
    // Layout-safe is not enough: the other program contracts must still find what they call.
    assertCrossCallsKept(key, next, dir);
  } catch (e) {
    if (!isDeployerError(e, "UNSAFE_UPGRADE")) throw e;
    // The same refusal, with the layouts side by side for the reader (the CLI prints them).
    throw new DeployerError("UNSAFE_UPGRADE", e.message, {
      cause: e,
      details: {
        ...e.details,
        contract: key,
        oldImplementation,
        deployedArtifact: current.artifact,
        newArtifact: next.contractName,
        layout,
      },
    });
  }
  const alreadyRunning =
    call === "0x" && layout.every((row) => row.change === "same") && codeMatches(next, runningCode);

  const proxy = programContract(program, key, provider, dir);
  const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => proxy.defaultAdmin()));
  let reuse: string | undefined;
  let reusedFrom: string | undefined;
  if (opts.implementation) {
    reuse = getAddress(opts.implementation);
    reusedFrom = "given";
    const problem = await deployedProblem(chain, reuse, next);
    if (problem) throw new DeployerError("INVALID_CONFIG", `implementation: ${reuse}: ${problem}`);
  } else if (!alreadyRunning) {
    const found = await firstReusable(chain, await knownImplementations(program, opts.store), next, oldImplementation);
    reuse = found?.address;
    reusedFrom = found?.from;
  }
  return {
    contract: key,
    proxy: rec.proxy,
    next,
    oldImplementation,
    current,
    layout,
    admin,
    ...(reuse ? { reuse, reusedFrom } : {}),
    alreadyRunning,
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
  /** An implementation with the new bytecode already on chain, if any, and whose it is. */
  reuse?: string;
  reusedFrom?: string;
  /** The proxy already runs this build: an upgrade would deploy and send nothing. */
  alreadyRunning?: true;
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
    ...(plan.reuse ? { reuse: plan.reuse, reusedFrom: plan.reusedFrom } : {}),
    ...(plan.alreadyRunning ? { alreadyRunning: true as const } : {}),
  };
}
