import { getAddress, id, keccak256, ZeroAddress, type Provider } from "ethers";
import { roleHash, type RoleName } from "@points/contracts/program";
import { artifactNames, codeMatches, loadArtifact } from "./artifacts.js";
import { brandHomes } from "./brandOnce.js";
import { Chain, type ChainInfo, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { withLayout } from "./layouts.js";
import { assertBrand } from "./programConfig.js";
import { programFactoryAt } from "./release.js";
import { syncProgram } from "./sync.js";
import {
  IMPLEMENTATION_ARTIFACTS,
  PROGRAM_CONTRACTS,
  type DeploymentStore,
  type LayoutRecords,
  type ProgramContract,
  type ProgramRecord,
} from "./types.js";
import { birthFacts, roleNames } from "./verify.js";

export interface ImportOptions extends ChainOptions {
  contractsDir?: string;
  /** A ProgramFactory to search besides the releases the store knows (its release manifest lost too). */
  programFactory?: string;
  /** The artifact an implementation the program was upgraded to was built from, by contract (as for sync). */
  artifacts?: Partial<Record<ProgramContract, string>>;
}

export interface ImportResult {
  program: ProgramRecord;
  /** false: the manifest already held this very program (same birth transaction); nothing written. */
  written: boolean;
  /** What differs from the program's birth (upgrades, handovers found on chain), one line each. */
  changes: string[];
  /** Upgrades executed since birth that the deployer would have refused (see `syncProgram`). */
  warnings: string[];
}

type Birth = { txHash: string; blockNumber: number; admin: string; executor: string };

/** The ProgramDeployed event of `brand` on `pf` (a brand is deployed once per factory). */
async function birthEvent(chain: Chain, pf: ReturnType<typeof programFactoryAt>, brand: string): Promise<Birth> {
  const events = await chain.call("ProgramDeployed logs", () =>
    pf.queryFilter(pf.filters.ProgramDeployed(id(brand)), 0),
  );
  const ev = events[0] as { args?: unknown[]; transactionHash: string; blockNumber: number } | undefined;
  if (!ev?.args) {
    throw new DeployerError(
      "VERIFY_FAILED",
      `import: ProgramFactory ${await pf.getAddress()} knows "${brand}" but the node returned no ProgramDeployed event for it (a pruned node?)`,
    );
  }
  const args = ev.args as [string, string, string, string];
  return {
    txHash: ev.transactionHash,
    blockNumber: ev.blockNumber,
    admin: getAddress(args[2]),
    executor: getAddress(args[3]),
  };
}

/** The deployProgram parameters, read from the birth transaction's calldata. */
async function birthParams(chain: Chain, pf: ReturnType<typeof programFactoryAt>, txHash: string) {
  const tx = await chain.call(`getTransaction(${txHash})`, () => chain.provider.getTransaction(txHash));
  const parsed = tx ? pf.interface.parseTransaction({ data: tx.data }) : null;
  if (!tx || parsed?.name !== "deployProgram") {
    // Sent through a multisig or another contract: the config is not in the transaction's own calldata.
    throw new DeployerError(
      "VERIFY_FAILED",
      `import: the birth transaction ${txHash} does not call ProgramFactory.deployProgram directly; its config cannot be read`,
    );
  }
  return { p: parsed.args[0] as Record<string, unknown> & { [k: string]: never }, from: getAddress(tx.from) };
}

/**
 * Rebuilds the manifest of a program lost from it, from chain state alone: the brand's
 * ProgramDeployed event on a known ProgramFactory (every recorded release, plus
 * `opts.programFactory`), the birth transaction's parameters and role grants, the release's
 * implementations; then `sync` brings it up to date (upgrades and handovers executed since).
 * A layout is recorded only for code that is exactly a build on disk. Never overwrites a
 * manifest of another program (BRAND_EXISTS); sends nothing.
 */
export async function importProgram(
  brand: string,
  provider: Provider,
  store: DeploymentStore,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  assertBrand(brand);
  const chain = new Chain(provider, opts);
  const info: ChainInfo = { chainId: await chain.chainId() };
  const dir = opts.contractsDir;
  let homes = await brandHomes(chain, store, info, brand, opts);
  if (opts.programFactory) homes = homes.filter((h) => h.programFactory === getAddress(opts.programFactory!));
  if (homes.length === 0) {
    throw new DeployerError(
      "PROGRAM_NOT_FOUND",
      `import: no ProgramFactory known on chain ${info.chainId} has a program "${brand}"; ` +
        "name the factory it was deployed with: --program-factory <address>",
      { details: { brand } },
    );
  }
  if (homes.length > 1) {
    throw new DeployerError(
      "BRAND_EXISTS",
      `import: "${brand}" has programs on ${homes.length} ProgramFactories (${homes.map((h) => h.programFactory).join(", ")}); ` +
        "name the one to import with --program-factory",
      { details: { brand, programFactories: homes.map((h) => h.programFactory) } },
    );
  }
  const home = homes[0]!;
  const pf = programFactoryAt(home.programFactory, chain, dir);
  const birth = await birthEvent(chain, pf, brand);
  const existing = await store.getProgram(info.chainId, brand);
  if (existing) {
    if (existing.txHash === birth.txHash) return { program: existing, written: false, changes: [], warnings: [] };
    throw new DeployerError(
      "BRAND_EXISTS",
      `import: the manifest of "${brand}" records another program (${existing.addresses.points}); not overwritten`,
      { details: { brand, points: existing.addresses.points } },
    );
  }

  const { p, from } = await birthParams(chain, pf, birth.txHash);
  const [onChain, impls, version] = await Promise.all([
    chain.call("ProgramFactory.programOf", () => pf.programOf(brand)),
    chain.call("ProgramFactory.implementations", () => pf.implementations()),
    chain.call("ProgramFactory.version", () => pf.version()),
  ]);
  const release = await store.getRelease(info.chainId, String(version));
  const known = release && getAddress(release.programFactory) === home.programFactory ? release : undefined;

  const addresses: ProgramRecord["addresses"] = {};
  const contracts: ProgramRecord["contracts"] = {};
  let layouts: LayoutRecords = {};
  for (const k of PROGRAM_CONTRACTS) {
    if (onChain[k] === ZeroAddress) continue;
    addresses[k] = getAddress(onChain[k]);
    const implementation = getAddress(impls[k]);
    const code = await chain.code(implementation);
    const codeHash = keccak256(code);
    const recorded = known?.layouts?.[codeHash];
    if (recorded) layouts[codeHash] = recorded;
    else if (codeMatches(loadArtifact(IMPLEMENTATION_ARTIFACTS[k], dir), code))
      layouts = withLayout(layouts, code, loadArtifact(IMPLEMENTATION_ARTIFACTS[k], dir), implementation, dir);
    contracts[k] = {
      proxy: addresses[k]!,
      implementation,
      artifact: IMPLEMENTATION_ARTIFACTS[k],
      implementationCodeHash: codeHash,
      proxyCodeHash: await chain.codeHash(addresses[k]!),
    };
  }

  const facts = await birthFacts(chain, { txHash: birth.txHash, addresses });
  const roles: ProgramRecord["roles"] = {};
  for (const k of Object.keys(contracts) as ProgramContract[]) {
    const byName: Record<string, string[]> = {};
    for (const role of roleNames(contracts[k]!.artifact, dir)) {
      const hash = roleHash(role as RoleName);
      byName[role] = [...facts.grants]
        .filter((g) => g.startsWith(`${k}|${hash}|`))
        .map((g) => g.split("|")[2])
        .sort();
    }
    roles[k] = byName;
  }

  const collateral = getAddress(String(p.collateralAsset));
  const collateralCode = await chain.code(collateral);
  const feed = getAddress(String(p.oracleFeed));
  const record: ProgramRecord = {
    chainId: info.chainId,
    brand,
    version: String(version),
    programFactory: home.programFactory,
    deployer: birth.admin,
    admin: birth.admin,
    // With EXECUTOR_ROLE left to nobody the executor is the account that sent the deployment.
    executor: birth.executor === ZeroAddress ? from : birth.executor,
    addresses,
    contracts,
    collateralAsset: collateral,
    // A mock collateral is known by its code; when and by whom it was created is not recorded.
    ...(codeMatches(loadArtifact("MockStablecoin", dir), collateralCode)
      ? { collateralMock: { artifact: "MockStablecoin", address: collateral, codeHash: keccak256(collateralCode) } }
      : {}),
    txHash: birth.txHash,
    blockNumber: birth.blockNumber,
    roles,
    transferAllowlist: facts.allowlist,
    config: {
      ...(birth.executor === ZeroAddress ? { executorRole: false as const } : {}),
      brand,
      tokenName: String(p.tokenName),
      tokenSymbol: String(p.tokenSymbol),
      collateralAsset: collateral,
      ...(feed !== ZeroAddress
        ? {
            oracle: {
              feed,
              heartbeat: Number(p.oracleHeartbeat),
              lowerPeg: String(p.lowerPeg),
              upperPeg: String(p.upperPeg),
            },
          }
        : {}),
      deployer: birth.admin,
      feeReceiver: getAddress(String(p.feeReceiver)),
      mintFeeBps: Number(p.mintFeeBps),
      redeemFeeBps: Number(p.redeemFeeBps),
      redeemDelay: Number(p.redeemDelay),
      adminDelay: Number(p.adminDelay),
    },
    upgrades: [],
    layouts,
    createdAt: new Date(((await chain.provider.getBlock(birth.blockNumber))?.timestamp ?? 0) * 1000).toISOString(),
  };
  // An implementation upgraded to since birth is named by the one build artifact with its code
  // (unless the caller named it); none or several leave it to sync, which asks for --artifact.
  const artifacts = { ...opts.artifacts };
  for (const k of Object.keys(contracts) as ProgramContract[]) {
    if (artifacts[k]) continue;
    const running = await chain.implementationOf(contracts[k]!.proxy);
    if (running === contracts[k]!.implementation) continue;
    const code = await chain.code(running);
    const matches = artifactNames(dir).filter((n) => {
      try {
        return codeMatches(loadArtifact(n, dir), code);
      } catch {
        return false;
      }
    });
    if (matches.length === 1) artifacts[k] = matches[0];
  }
  // Upgrades and handovers since birth; refuses (VERIFY_FAILED, nothing saved) code that is no known build.
  const synced = await syncProgram(record, provider, { ...opts, artifacts, store: undefined });
  await store.saveProgram(synced.program);
  return { program: synced.program, written: true, changes: synced.changes, warnings: synced.warnings };
}
