import { Contract, getAddress, id, ZeroAddress, type Signer } from "ethers";
import { roleHash, type RoleName } from "@points/contracts/program";
import { codeMatches, contractsVersion, loadArtifact } from "./artifacts.js";
import { Chain, type ChainInfo } from "./chain.js";
import { assertBrandOnce } from "./brandOnce.js";
import { assertBrand, normalizeConfig, type DeployConfig } from "./programConfig.js";
import { assertFunds, createAll, releaseGasBound } from "./createTransactions.js";
import { settleRecorded } from "./createWithSender.js";
import { DeployerError } from "./errors.js";
import { ensureRelease, programFactoryAt, type ReleaseOptions } from "./release.js";
import { reusableImplementations } from "./reuse.js";
import { runStage, type StageOutcome } from "./stage.js";
import {
  IMPLEMENTATION_ARTIFACTS,
  PROGRAM_CONTRACTS,
  type DeploymentStore,
  type ProgramConfigRecord,
  type ProgramContract,
  type ProgramRecord,
  type Release,
  type StageContext,
  type StageName,
} from "./types.js";
import { birthFacts, roleNames, verifyProgram } from "./verify.js";

export interface DeployOptions extends ReleaseOptions {
  /** The chain the signer is on (default: read from the provider; dev when its id is 31337 or 1337). */
  chain?: ChainInfo;
  /**
   * The executor the program's Factory grants EXECUTOR_ROLE (default: the signer). A service with
   * several executor keys sends from any of them and names its first key here.
   */
  executor?: string;
}

/** Rough gas of the steps that cannot be simulated before the release exists. */
const PROGRAM_GAS = 2_500_000n;
const MOCK_GAS = 1_500_000n;

type Run = {
  chain: Chain;
  info: ChainInfo;
  signer: Signer;
  from: string;
  store: DeploymentStore;
  ctx: StageContext;
  cfg: ProgramConfigRecord;
  opts: DeployOptions;
  version: string;
};

/** A stage of this run, reported under the run's brand. */
function stage<T>(run: Run, name: StageName, body: () => Promise<StageOutcome<T>>): Promise<T> {
  return runStage(run.store, run.ctx, name, body);
}

function deployParams(run: Run, collateral: string) {
  const { cfg } = run;
  return {
    brand: cfg.brand,
    tokenName: cfg.tokenName,
    tokenSymbol: cfg.tokenSymbol,
    admin: cfg.deployer,
    executor: birthExecutor(run),
    adminDelay: cfg.adminDelay,
    collateralAsset: collateral,
    oracleFeed: cfg.oracle?.feed ?? ZeroAddress,
    oracleHeartbeat: cfg.oracle?.heartbeat ?? 0,
    lowerPeg: BigInt(cfg.oracle?.lowerPeg ?? 0),
    upperPeg: BigInt(cfg.oracle?.upperPeg ?? 0),
    feeReceiver: cfg.feeReceiver,
    mintFeeBps: cfg.mintFeeBps,
    redeemFeeBps: cfg.redeemFeeBps,
    redeemDelay: cfg.redeemDelay,
  };
}

/** Who gets EXECUTOR_ROLE at birth: the executor, or nobody when the program's desk is off. */
const birthExecutor = (run: Run) => (run.cfg.executorRole === false ? ZeroAddress : executorOf(run));

/** The service's executor of the program (EXECUTOR_ROLE unless its desk is off at birth). */
const executorOf = (run: Run) => (run.opts.executor ? getAddress(run.opts.executor) : run.from);

/** The ProgramFactory this run can use without deploying (store or adopted), if any. */
async function knownRelease(run: Run): Promise<{ address: string; fromBlock: number } | undefined> {
  if (run.opts.programFactory) return { address: run.opts.programFactory, fromBlock: 0 };
  const r = await run.store.getRelease(run.info.chainId, run.version);
  if (!r) return undefined;
  const code = await run.chain.code(r.programFactory);
  if (!codeMatches(loadArtifact("ProgramFactory", run.opts.contractsDir), code)) return undefined;
  return { address: r.programFactory, fromBlock: r.contracts.programFactory.blockNumber ?? 0 };
}

/** The ProgramFactory a deploy with `opts` would use without deploying a release, if any. */
async function currentFactory(chain: Chain, store: DeploymentStore, info: ChainInfo, opts: DeployOptions) {
  if (opts.programFactory) return opts.programFactory;
  const r = await store.getRelease(info.chainId, opts.version ?? contractsVersion(opts.contractsDir));
  if (!r) return undefined;
  const code = await chain.code(r.programFactory);
  return codeMatches(loadArtifact("ProgramFactory", opts.contractsDir), code) ? r.programFactory : undefined;
}

/**
 * Whether `brand` already has a program on `pf`: undefined if not, the deployment event if it is
 * this run's own (same admin and executor: a resumed run), BRAND_TAKEN otherwise.
 */
async function existingProgram(run: Run, pf: Contract, fromBlock: number) {
  const program = await run.chain.call("ProgramFactory.programOf", () => pf.programOf(run.cfg.brand));
  if (program.points === ZeroAddress) return undefined;
  const events = await run.chain.call("ProgramDeployed logs", () =>
    pf.queryFilter(pf.filters.ProgramDeployed(id(run.cfg.brand)), fromBlock),
  );
  const ev = events[0] as { args?: unknown[]; transactionHash: string; blockNumber: number } | undefined;
  const args = ev?.args as [string, string, string, string] | undefined;
  if (!ev || !args || getAddress(args[2]) !== run.cfg.deployer || getAddress(args[3]) !== birthExecutor(run)) {
    throw new DeployerError(
      "BRAND_TAKEN",
      `brand: "${run.cfg.brand}" already has a program on chain ${run.info.chainId}`,
    );
  }
  return { txHash: ev.transactionHash, blockNumber: ev.blockNumber };
}

async function assertOperator(run: Run, pf: Contract) {
  const role = await run.chain.call("ProgramFactory.OPERATOR_ROLE", () => pf.OPERATOR_ROLE());
  if (!(await run.chain.call("ProgramFactory.hasRole", () => pf.hasRole(role, run.from)))) {
    throw new DeployerError(
      "WRONG_KEY",
      `signer: ${run.from} is not an operator of ProgramFactory ${await pf.getAddress()}; use the executor key`,
    );
  }
}

/** The chain-side checks of the `validate` stage; nothing is sent. */
async function validate(run: Run): Promise<void> {
  const { chain, cfg } = run;
  if (cfg.collateralAsset !== "mock" && (await chain.code(cfg.collateralAsset)) === "0x") {
    throw new DeployerError("INVALID_CONFIG", `collateralAsset: ${cfg.collateralAsset} has no code on this chain`);
  }
  if (cfg.oracle && (await chain.code(cfg.oracle.feed)) === "0x") {
    throw new DeployerError("INVALID_CONFIG", `oracle.feed: ${cfg.oracle.feed} has no code on this chain`);
  }
  const known = await knownRelease(run);
  // A new release deploys only the implementations no earlier release of the chain holds.
  const reused = known
    ? {}
    : await reusableImplementations(chain, run.store, run.info.chainId, run.version, run.opts.contractsDir);
  let gas = known ? 0n : releaseGasBound(run.opts.contractsDir, Object.keys(reused) as ProgramContract[]);
  if (known) {
    const pf = programFactoryAt(known.address, chain, run.opts.contractsDir);
    await assertOperator(run, pf);
    if (await existingProgram(run, pf, known.fromBlock)) return;
    if (cfg.collateralAsset !== "mock") {
      const params = deployParams(run, cfg.collateralAsset);
      const program = await chain.call("simulate ProgramFactory.deployProgram", () =>
        pf.connect(run.signer).getFunction("deployProgram").estimateGas(params),
      );
      chain.assertGasCap((program * 12n) / 10n, "ProgramFactory.deployProgram");
      gas += program;
    }
  }
  if (cfg.collateralAsset === "mock") gas += MOCK_GAS;
  if (!known || cfg.collateralAsset === "mock") gas += PROGRAM_GAS;
  await assertFunds(chain, run.from, [{ gasLimit: gas, ...(await chain.feeData()) }]);
}

async function deploy(run: Run, release: Release): Promise<{ value: ProgramRecord; skipped: boolean }> {
  const { chain, cfg, store, ctx, signer, from } = run;
  const dir = run.opts.contractsDir;
  const pf = programFactoryAt(release.programFactory, chain, dir);
  let sent = false;

  let collateral = cfg.collateralAsset;
  let collateralMock: ProgramRecord["collateralMock"];
  if (collateral === "mock") {
    const name = `${cfg.tokenName} Test USD`;
    const mock = loadArtifact("MockStablecoin", dir);
    const created = await createAll({ chain, signer, from, store, ctx, stage: "deploy", sender: run.opts.sender }, [
      {
        key: "collateralAsset",
        artifact: mock,
        args: () => [name, "tUSD", 6],
        accept: async (address) => {
          const c = new Contract(address, mock.abi, chain.provider);
          return (await chain.call("MockStablecoin.name", () => c.name())) === name;
        },
      },
    ]);
    sent = created.sent;
    collateralMock = created.deployments.collateralAsset;
    collateral = collateralMock.address;
  }

  // What the chain says about the brand must be final: a deployProgram sent before a crash
  // either landed or never will.
  if (run.opts.sender)
    await settleRecorded(run.opts.sender, store, ctx, "deploy", (await store.getStages?.(ctx))?.deploy);
  else await chain.settle(from);
  const fromBlock = release.contracts.programFactory.blockNumber ?? 0;
  let birth = await existingProgram(run, pf, fromBlock);
  if (!birth) {
    const params = deployParams(run, collateral);
    const fn = pf.connect(signer).getFunction("deployProgram");
    // Independent reads go out together: on a chain with one-second blocks the program
    // transaction should follow the release's block at once.
    const [predicted, gas, fees, nonce] = await Promise.all([
      chain.call("ProgramFactory.predictAddresses", () => pf.predictAddresses(cfg.brand)),
      chain.call("simulate ProgramFactory.deployProgram", () => fn.estimateGas(params)),
      chain.feeData(),
      run.opts.sender ? -1 : chain.nonce(from, "latest"),
    ]);
    const addresses: Record<string, string> = {};
    for (const k of PROGRAM_CONTRACTS) if (k !== "oracle" || cfg.oracle) addresses[k] = predicted[k];
    // Recorded before sending: a crash after the send still knows where to look.
    await store.stageAddresses(ctx, "deploy", addresses);
    const gasLimit = (gas * 12n) / 10n;
    chain.assertGasCap(gasLimit, "ProgramFactory.deployProgram");
    await assertFunds(chain, from, [{ gasLimit, ...fees }]);
    const description = `ProgramFactory.deployProgram(${cfg.brand})`;
    let hash: string;
    let receipt: { blockNumber: number; status: number | null };
    if (run.opts.sender) {
      const sender = run.opts.sender;
      const data = pf.interface.encodeFunctionData("deployProgram", [params]);
      const [tx] = await sender.sendBatch(
        1,
        async () => [{ to: release.programFactory, data, gasLimit, chainId: run.info.chainId }],
        (_, h, n, raw) =>
          store.stageTransaction(ctx, "deploy", { hash: h, nonce: n, to: release.programFactory, description, raw }),
      );
      const r = await sender.wait(tx.nonce, "ProgramFactory.deployProgram");
      if (r.status !== 1)
        throw new DeployerError("TRANSACTION_FAILED", `ProgramFactory.deployProgram: transaction ${r.hash} reverted`);
      [hash, receipt] = [r.hash, r];
    } else {
      const request = { gasLimit, nonce, chainId: run.info.chainId, ...fees };
      const tx = await chain.call("send ProgramFactory.deployProgram", () => fn.send(params, request));
      await store.stageTransaction(ctx, "deploy", {
        hash: tx.hash,
        nonce: tx.nonce,
        to: release.programFactory,
        description,
      });
      hash = tx.hash;
      receipt = await chain.receipt(tx.hash, "ProgramFactory.deployProgram");
    }
    birth = { txHash: hash, blockNumber: receipt.blockNumber };
    sent = true;
  }

  const onChain = await chain.call("ProgramFactory.programOf", () => pf.programOf(cfg.brand));
  const record = await buildRecord(run, release, onChain, birth, collateral, collateralMock);
  await store.stageAddresses(ctx, "deploy", { ...record.addresses, collateralAsset: collateral });
  return { value: record, skipped: !sent };
}

async function buildRecord(
  run: Run,
  release: Release,
  onChain: Record<ProgramContract, string>,
  birth: { txHash: string; blockNumber: number },
  collateral: string,
  collateralMock: ProgramRecord["collateralMock"],
): Promise<ProgramRecord> {
  const { chain, cfg } = run;
  const addresses: ProgramRecord["addresses"] = {};
  const contracts: ProgramRecord["contracts"] = {};
  for (const k of PROGRAM_CONTRACTS) {
    if (onChain[k] === ZeroAddress) continue;
    addresses[k] = getAddress(onChain[k]);
    contracts[k] = {
      proxy: addresses[k]!,
      implementation: release.implementations[k],
      artifact: IMPLEMENTATION_ARTIFACTS[k],
      implementationCodeHash: release.contracts[k].codeHash,
      proxyCodeHash: await chain.codeHash(addresses[k]!),
    };
  }
  const facts = await birthFacts(chain, { txHash: birth.txHash, addresses });
  const roles: ProgramRecord["roles"] = {};
  for (const k of Object.keys(contracts) as ProgramContract[]) {
    const byName: Record<string, string[]> = {};
    for (const role of roleNames(contracts[k]!.artifact, run.opts.contractsDir)) {
      const hash = roleHash(role as RoleName);
      byName[role] = [...facts.grants]
        .filter((g) => g.startsWith(`${k}|${hash}|`))
        .map((g) => g.split("|")[2])
        .sort();
    }
    roles[k] = byName;
  }
  const layouts: ProgramRecord["layouts"] = {};
  for (const c of Object.values(contracts)) {
    const recorded = release.layouts?.[c!.implementationCodeHash];
    if (recorded) layouts[c!.implementationCodeHash] = recorded;
  }
  return {
    chainId: run.info.chainId,
    brand: cfg.brand,
    version: release.version,
    programFactory: release.programFactory,
    deployer: cfg.deployer,
    admin: cfg.deployer,
    executor: executorOf(run),
    addresses,
    contracts,
    collateralAsset: getAddress(collateral),
    ...(collateralMock ? { collateralMock } : {}),
    txHash: birth.txHash,
    blockNumber: birth.blockNumber,
    roles,
    transferAllowlist: facts.allowlist,
    config: { ...cfg, collateralAsset: getAddress(collateral) },
    upgrades: [],
    layouts,
    createdAt: new Date().toISOString(),
  };
}

/**
 * Deploys a whole program in one transaction of the release's ProgramFactory, through the
 * stages validate, release, deploy, verify and register, each reported to `store`. Safe to
 * run again after a crash at any point: it asks the chain before sending anything.
 */
export async function deployProgram(
  config: DeployConfig,
  signer: Signer,
  store: DeploymentStore,
  opts: DeployOptions = {},
): Promise<ProgramRecord> {
  const chain = Chain.of(signer, opts);
  const info = opts.chain ?? { chainId: await chain.chainId() };
  // The brand names the manifest, so it is checked before anything is reported.
  assertBrand(config?.brand);
  const ctx: StageContext = { chainId: info.chainId, brand: config.brand };
  // Before any stage is reported: a refused second program leaves its manifest untouched.
  await assertBrandOnce(chain, store, info, config.brand, await currentFactory(chain, store, info, opts), opts);

  const run = await runStage(store, ctx, "validate", async () => {
    const cfg = normalizeConfig(config, info);
    const from = await chain.signerOn(info, signer);
    const version = opts.version ?? contractsVersion(opts.contractsDir);
    const checked: Run = { chain, info, signer, from, store, ctx, cfg, opts, version };
    await validate(checked);
    return { value: checked };
  });

  const release = await ensureRelease(info, signer, store, { ...opts, version: run.version, ctx: run.ctx });
  const pf = programFactoryAt(release.programFactory, chain, opts.contractsDir);

  const existing = await store.getProgram(info.chainId, run.cfg.brand);
  const record = await stage(run, "deploy", async () => {
    await assertOperator(run, pf);
    if (existing && existing.programFactory === release.programFactory) {
      const onChain = await chain.call("ProgramFactory.programOf", () => pf.programOf(run.cfg.brand));
      if (getAddress(onChain.points) === existing.addresses.points) return { value: existing, skipped: true };
    }
    return deploy(run, release);
  });

  await stage(run, "verify", async () => ({ value: await verifyProgram(record, signer, opts) }));

  return stage(run, "register", async () => {
    if (existing && existing.txHash === record.txHash) return { value: existing, skipped: true };
    // A manifest is only ever replaced by the same program (same birth transaction).
    if (existing) {
      throw new DeployerError(
        "BRAND_EXISTS",
        `brand: the manifest of "${existing.brand}" records another program (${existing.addresses.points}); not overwritten`,
      );
    }
    await store.saveProgram(record);
    return { value: record };
  });
}
