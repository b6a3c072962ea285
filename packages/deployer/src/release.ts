import { Contract, keccak256, type Signer } from "ethers";
import { artifactInterface, codeMatches, contractsVersion, diskArtifact, loadArtifact } from "./artifacts.js";
import { Chain, type ChainInfo, type ChainOptions } from "./chain.js";
import { createAll, type CreateItem } from "./createTransactions.js";
import { DeployerError } from "./errors.js";
import { withLayout } from "./layouts.js";
import { runStage } from "./stage.js";
import {
  IMPLEMENTATION_ARTIFACTS,
  PROGRAM_CONTRACTS,
  type ContractDeployment,
  type DeploymentStore,
  type LayoutRecords,
  type ProgramContract,
  type Release,
  type StageContext,
} from "./types.js";
import { reusableImplementations } from "./reuse.js";
import { assertImplementationSafe, type SafetyOptions } from "./upgradeSafety.js";

export interface ReleaseOptions extends ChainOptions, SafetyOptions {
  /** Release version label (default: the @points/contracts package version). */
  version?: string;
  /** Adopt this already deployed ProgramFactory (and its implementations) as the release. */
  programFactory?: string;
  /** Admin of the ProgramFactory (default: the signer). */
  admin?: string;
  /** Operator of the ProgramFactory, i.e. the executor that deploys programs (default: the signer). */
  operator?: string;
  /** How many of the signer's latest nonces a resumed release searches (default 32). */
  nonceScanWindow?: number;
  /** Report the `release` stage under this context (deployProgram passes its brand). */
  ctx?: StageContext;
}

export function programFactoryAt(address: string, runner: Chain | Signer, dir?: string): Contract {
  const iface = artifactInterface(loadArtifact("ProgramFactory", dir));
  return new Contract(address, iface, runner instanceof Chain ? runner.provider : runner);
}

/** Whether every contract of `release` is on chain with the expected code and version. */
async function releaseIsLive(chain: Chain, release: Release, dir?: string): Promise<boolean> {
  for (const key of [...PROGRAM_CONTRACTS, "programFactory"] as const) {
    const d = release.contracts[key];
    if (!d || !codeMatches(loadArtifact(d.artifact, dir), await chain.code(d.address))) return false;
  }
  const pf = programFactoryAt(release.programFactory, chain, dir);
  return (await chain.call("ProgramFactory.version", () => pf.version())) === release.version;
}

async function adopt(chain: Chain, address: string, from: string, info: ChainInfo, version: string, dir?: string) {
  if (!codeMatches(loadArtifact("ProgramFactory", dir), await chain.code(address))) {
    throw new DeployerError("INVALID_CONFIG", `programFactory: ${address} is not a ProgramFactory of this release`);
  }
  const pf = programFactoryAt(address, chain, dir);
  const onChainVersion = String(await chain.call("ProgramFactory.version", () => pf.version()));
  if (onChainVersion !== version) {
    throw new DeployerError(
      "INVALID_CONFIG",
      `programFactory: ${address} is version ${onChainVersion}, not ${version}`,
    );
  }
  const impls = await chain.call("ProgramFactory.implementations", () => pf.implementations());
  const contracts = {} as Release["contracts"];
  let layouts: LayoutRecords = {};
  for (const key of PROGRAM_CONTRACTS) {
    const artifact = loadArtifact(IMPLEMENTATION_ARTIFACTS[key], dir);
    const code = await chain.code(impls[key]);
    contracts[key] = { artifact: artifact.contractName, address: impls[key], codeHash: keccak256(code) };
    // Only a layout this build can vouch for: another build's code gets none (sync imports it).
    if (codeMatches(artifact, code)) layouts = withLayout(layouts, code, artifact, impls[key], dir);
  }
  contracts.programFactory = { artifact: "ProgramFactory", address, codeHash: await chain.codeHash(address) };
  return buildRelease(info, version, from, contracts, layouts);
}

function buildRelease(
  info: ChainInfo,
  version: string,
  deployer: string,
  contracts: Release["contracts"],
  layouts: LayoutRecords,
): Release {
  const implementations = {} as Record<ProgramContract, string>;
  for (const key of PROGRAM_CONTRACTS) implementations[key] = contracts[key].address;
  return {
    chainId: info.chainId,
    version,
    deployer,
    programFactory: contracts.programFactory.address,
    implementations,
    contracts,
    layouts,
    createdAt: new Date().toISOString(),
  };
}

/**
 * The release of this version on `chain`: returned when the store or the chain already has it,
 * otherwise every implementation is validated with OpenZeppelin's upgrades tooling, then the
 * implementations no earlier release of the chain in the store already deployed with the same
 * code (those are reused, `reusedFrom` in the record) and the ProgramFactory are sent back to
 * back and recorded.
 */
export async function ensureRelease(
  info: ChainInfo,
  signer: Signer,
  store: DeploymentStore,
  opts: ReleaseOptions = {},
): Promise<Release> {
  const chain = Chain.of(signer, opts);
  const dir = opts.contractsDir;
  const version = opts.version ?? contractsVersion(dir);
  const ctx: StageContext = opts.ctx ?? { chainId: info.chainId, version };
  const from = await chain.signerOn(info, signer);

  return runStage(store, ctx, "release", async () => {
    const known = await store.getRelease(info.chainId, version);
    if (known && (await releaseIsLive(chain, known, dir))) {
      await store.stageAddresses(ctx, "release", { programFactory: known.programFactory, ...known.implementations });
      return { value: known, skipped: true };
    }
    // A recorded release whose factory is still on chain is never replaced by other code under
    // the same version: its programs would drop out of the tool's view (and its layouts with them).
    if (known && !opts.programFactory && (await chain.code(known.programFactory)) !== "0x") {
      throw new DeployerError(
        "INVALID_CONFIG",
        `release: ${version} on chain ${info.chainId} is ProgramFactory ${known.programFactory}, other code than this ` +
          `build; bump the contracts version for a new release`,
      );
    }
    if (opts.programFactory) {
      const adopted = await adopt(chain, opts.programFactory, from, info, version, dir);
      await store.saveRelease(adopted);
      await store.stageAddresses(ctx, "release", {
        programFactory: adopted.programFactory,
        ...adopted.implementations,
      });
      return { value: adopted, skipped: true };
    }

    for (const key of PROGRAM_CONTRACTS) assertImplementationSafe(IMPLEMENTATION_ARTIFACTS[key], opts);
    // Nothing is sent when the code to deploy is not the build whose layouts get recorded.
    for (const name of [...Object.values(IMPLEMENTATION_ARTIFACTS), "ProgramFactory"]) {
      if (!codeMatches(diskArtifact(name, dir), loadArtifact(name, dir).deployedBytecode)) {
        throw new DeployerError(
          "ARTIFACTS_MISSING",
          `release: the program module's ${name} is not the build on disk (stale after \`hardhat compile\` ` +
            `without \`pnpm build\`); run pnpm build`,
        );
      }
    }

    const admin = opts.admin ?? from;
    const operator = opts.operator ?? from;
    // Implementations an earlier release of the chain already deployed with this build's code are
    // reused (the store's releases do not change during the run: a resumed run plans the same).
    const reused = await reusableImplementations(chain, store, info.chainId, version, dir);
    const items: CreateItem[] = PROGRAM_CONTRACTS.filter((key) => !reused[key]).map((key) => ({
      key,
      artifact: loadArtifact(IMPLEMENTATION_ARTIFACTS[key], dir),
      args: () => [],
    }));
    items.push({
      key: "programFactory",
      artifact: loadArtifact("ProgramFactory", dir),
      // With every implementation reused, the constructor reads only contracts already on chain.
      dependsOnBatch: items.length > 0,
      args: (a) => [
        admin,
        operator,
        Object.fromEntries(PROGRAM_CONTRACTS.map((k) => [k, reused[k]?.address ?? a[k]])),
        version,
      ],
      accept: async (address, found) => {
        const pf = programFactoryAt(address, chain, dir);
        if ((await chain.call("ProgramFactory.version", () => pf.version())) !== version) return false;
        const impls = await chain.call("ProgramFactory.implementations", () => pf.implementations());
        return PROGRAM_CONTRACTS.every((k) => {
          const expected = reused[k]?.address ?? found[k]?.address;
          return expected !== undefined && String(impls[k]).toLowerCase() === expected.toLowerCase();
        });
      },
    });
    const { deployments, sent } = await createAll(
      { chain, signer, from, store, ctx, stage: "release", nonceScanWindow: opts.nonceScanWindow, sender: opts.sender },
      items,
    );
    for (const [key, r] of Object.entries(reused)) {
      deployments[key] = {
        artifact: IMPLEMENTATION_ARTIFACTS[key as ProgramContract],
        address: r.address,
        codeHash: await chain.codeHash(r.address),
        reusedFrom: r.from,
      };
    }
    let layouts: LayoutRecords = {};
    for (const key of PROGRAM_CONTRACTS) {
      const d = deployments[key];
      const code = await chain.code(d.address);
      layouts = withLayout(layouts, code, loadArtifact(IMPLEMENTATION_ARTIFACTS[key], dir), d.address, dir);
    }
    const release = buildRelease(
      info,
      version,
      from,
      deployments as Record<string, ContractDeployment> as Release["contracts"],
      layouts,
    );
    await store.stageAddresses(ctx, "release", { programFactory: release.programFactory, ...release.implementations });
    await store.saveRelease(release);
    return { value: release, skipped: !sent };
  });
}
