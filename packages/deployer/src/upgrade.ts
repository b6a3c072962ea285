import { Contract, getAddress, Interface, keccak256, zeroPadValue, type Provider, type Signer } from "ethers";
import { codeMatches, type Artifact } from "./artifacts.js";
import { Chain } from "./chain.js";
import { createAll } from "./createTransactions.js";
import { DeployerError } from "./errors.js";
import { withLayout, type LayoutRow } from "./layouts.js";
import { runStage } from "./stage.js";
import { noStore } from "./store.js";
import type { DeploymentStore, ProgramContract, ProgramRecord } from "./types.js";
import {
  contractKey,
  INITIALIZABLE_SLOT,
  planUpgrade,
  resolveArtifact,
  type ImplementationSource,
  type PlanOptions,
  type UpgradePlan,
} from "./upgradePlan.js";
import { programContract } from "./verify.js";

export type { ImplementationSource } from "./upgradePlan.js";

export interface UpgradeOptions extends PlanOptions {
  /** Deploys the new implementation; also sends the upgrade when it holds DEFAULT_ADMIN_ROLE. */
  signer?: Signer;
  /** For reads when no signer is given (with `implementation`, or a dry run). */
  provider?: Provider;
  /** false: never send, always return the unsigned transaction; true: fail unless `signer` is the admin. */
  send?: boolean;
  /** Reads and simulates only: needs no key, sends nothing and records nothing. */
  dryRun?: boolean;
  /**
   * Records the upgrade (and the implementation deployment's stage) here. Also read: an
   * implementation of the new build that another program or release of the chain deployed is
   * reused (a dry run only reads it).
   */
  store?: DeploymentStore;
  /** Factory only: the ProgramFactory of the release to upgrade to (default: the store's newest release). */
  programFactory?: string;
}

/** What a dry run found: the upgrade as it would be sent, and how the chain would answer it. */
export interface DryRun {
  /** The implementation the upgrade would point at; `reused` when one with this bytecode is deployed, `from` whose. */
  implementation: { address: string; reused: boolean; from?: string };
  /** The admin's transaction. */
  transaction: { to: string; data: string; from: string; chainId: bigint; value: bigint };
  /** eth_call of the transaction from the admin on the latest block (the new code placed by a state override when not deployed yet). */
  simulation: { ok: true } | { ok: false; error: string };
}

export interface UpgradeResult {
  contract: ProgramContract;
  oldImplementation: string;
  newImplementation: string;
  /** Whether this call deployed the new implementation (false: it was given or reused). */
  deployed: boolean;
  /** Whose implementation was reused: "given" (`implementation`), "program <brand>" or "release <version>". */
  reusedFrom?: string;
  /** The deployed layout and the new one, variable by variable, each row safe or not and why. */
  layout: LayoutRow[];
  /** The upgrade transaction, when sent. */
  tx?: { hash: string; blockNumber: number };
  /** The transaction for the admin to sign, when not sent. */
  unsignedTx?: { to: string; data: string; from: string; chainId: bigint; value: bigint };
  /** The report of a dry run (nothing was sent). */
  dryRun?: DryRun;
  /** The proxy already runs exactly this code and layout (and no call is asked): nothing was deployed or sent. */
  alreadyRunning?: true;
  /** The record with the upgrade added (saved to `store` when given; unchanged by a dry run). */
  program: ProgramRecord;
}

/** Where a dry run without a key pretends the new implementation lives. */
const PLACEHOLDER = "0x00000000000000000000000000000000000D3910";

/** The runtime code `artifact` would have at `address` (every immutable set to that address, as UUPS's `__self`). */
function runtimeAt(artifact: Artifact, address: string): string {
  let code = artifact.deployedBytecode.replace(/^0x/, "");
  const word = zeroPadValue(address, 32).slice(2).toLowerCase();
  for (const refs of Object.values(artifact.immutableReferences ?? {})) {
    for (const r of refs) code = code.slice(0, r.start * 2) + word + code.slice((r.start + r.length) * 2);
  }
  return "0x" + code;
}

async function dryRun(chain: Chain, program: ProgramRecord, plan: UpgradePlan, signer?: Signer): Promise<DryRun> {
  let address = plan.reuse;
  let override: Record<string, { code: string }> | undefined;
  if (!address) {
    const from = signer ? await chain.addressOf(signer) : undefined;
    address = from ? Chain.createAddress(from, await chain.nonce(from, "pending")) : PLACEHOLDER;
    override = { [address]: { code: runtimeAt(plan.next, address) } };
  }
  const proxy = programContract(program, plan.contract, chain.provider);
  const data = proxy.interface.encodeFunctionData("upgradeToAndCall", [address, plan.call]);
  const transaction = { to: plan.proxy, data, from: plan.admin, chainId: program.chainId, value: 0n };
  const request = { from: plan.admin, to: plan.proxy, data };
  const rpc = chain.provider as Provider & { send?: (m: string, p: unknown[]) => Promise<unknown> };
  let simulation: DryRun["simulation"];
  try {
    if (override && typeof rpc.send !== "function") throw new Error("the provider cannot send a state override");
    await chain.call(`simulate ${plan.contract}.upgradeToAndCall`, () =>
      override ? rpc.send!("eth_call", [request, "latest", override]) : chain.provider.call(request),
    );
    simulation = { ok: true };
  } catch (e) {
    simulation = { ok: false, error: (e as Error).message };
  }
  const implementation = {
    address,
    reused: Boolean(plan.reuse),
    ...(plan.reusedFrom ? { from: plan.reusedFrom } : {}),
  };
  return { implementation, transaction, simulation };
}

/**
 * A Factory upgraded to its release's own implementation records that release's CollateralVault
 * (docs/deployment.md#migration-notes-for-existing-programs): the upgrade points at the release's
 * Factory and calls initializeVaultImplementation(programFactory). Nothing changes when the caller
 * gave a call or another implementation, the release's code is not the new artifact, or the proxy
 * already ran that reinitializer.
 */
async function vaultRecord(
  program: ProgramRecord,
  contractName: string,
  source: ImplementationSource,
  chain: Chain,
  opts: UpgradeOptions,
): Promise<Pick<PlanOptions, "call" | "implementation">> {
  const proxy = program.contracts.factory?.proxy;
  if (contractKey(contractName) !== "factory" || opts.call || !proxy) return {};
  let programFactory = opts.programFactory;
  let implementation: string | undefined;
  if (programFactory) {
    const abi = ["function implementations() view returns ((address,address,address,address,address))"];
    const pf = new Contract(programFactory, abi, chain.provider);
    implementation = (await chain.call("ProgramFactory.implementations", () => pf.implementations()))[1];
  } else {
    const release = await opts.store?.getRelease(program.chainId);
    programFactory = release?.programFactory;
    implementation = release?.implementations.factory;
  }
  if (!programFactory || !implementation) return {};
  if (opts.implementation && getAddress(opts.implementation) !== getAddress(implementation)) return {};
  if (!codeMatches(resolveArtifact(source, opts.contractsDir), await chain.code(implementation))) return {};
  const version = BigInt(await chain.storageAt(proxy, INITIALIZABLE_SLOT)) & ((1n << 64n) - 1n);
  if (version >= 2n) return {};
  const call = new Interface(["function initializeVaultImplementation(address)"]).encodeFunctionData(
    "initializeVaultImplementation",
    [programFactory],
  );
  return { implementation, call };
}

/**
 * Upgrades one contract of a program. First, by reads only, the implementation the proxy runs on
 * chain is looked up in the record by its runtime bytecode hash, and the new implementation must
 * be UUPS-safe and extend that recorded layout (UNSAFE_UPGRADE naming the problem otherwise).
 * Then the new implementation is deployed (unless given, or the same bytecode is already
 * deployed) and upgradeToAndCall is sent by the admin, or returned unsigned for the admin.
 */
export async function upgrade(
  program: ProgramRecord,
  contractName: string,
  newImplementation: ImplementationSource,
  signerOrOpts: Signer | UpgradeOptions,
): Promise<UpgradeResult> {
  const opts: UpgradeOptions =
    "getAddress" in signerOrOpts && "sendTransaction" in signerOrOpts
      ? { signer: signerOrOpts as Signer }
      : signerOrOpts;
  const dir = opts.contractsDir;
  const runner = opts.signer ?? opts.provider;
  if (!runner) throw new DeployerError("INVALID_CONFIG", "signer: a signer or a provider is required");
  const chain = Chain.of(runner, opts);
  const record = await vaultRecord(program, contractName, newImplementation, chain, opts);
  const plan = await planUpgrade(program, contractName, newImplementation, chain.provider, { ...opts, ...record });
  const key = plan.contract;
  const base = { contract: key, oldImplementation: plan.oldImplementation, layout: plan.layout };
  // Code alone is not enough: the contracts are built without a metadata hash, so a contract that
  // only appends an unused field to its storage struct compiles to the very same bytes, yet its
  // upgrade records the longer layout that later upgrades must extend (plan.alreadyRunning).
  if (plan.alreadyRunning) {
    return { ...base, newImplementation: plan.oldImplementation, deployed: false, alreadyRunning: true, program };
  }

  if (opts.dryRun) {
    const report = await dryRun(chain, program, plan, opts.signer);
    return { ...base, newImplementation: report.implementation.address, deployed: false, dryRun: report, program };
  }

  const from = opts.signer ? await chain.addressOf(opts.signer) : undefined;
  const sendIt = opts.send ?? from === plan.admin;
  if (sendIt && from !== plan.admin) {
    throw new DeployerError("WRONG_KEY", `signer: ${from ?? "none"} is not the admin (${plan.admin}) of ${key}`);
  }
  if (!plan.reuse && (!opts.signer || !from)) {
    throw new DeployerError(
      "INVALID_CONFIG",
      "signer: needed to deploy the new implementation (any funded key; it is harmless until a proxy points at it), or give a deployed one",
    );
  }
  const ctx = { chainId: program.chainId, brand: program.brand };
  const store = opts.store;
  return runStage(store ?? noStore, ctx, "upgrade", async () => {
    const rec = program.contracts[key]!;
    const proxy = programContract(program, key, chain.provider, dir);
    let newAddress = plan.reuse;
    if (!newAddress) {
      const created = await createAll(
        { chain, signer: opts.signer!, from: from!, store: store ?? noStore, ctx, stage: "upgrade" },
        [{ key: `${key}Implementation`, artifact: plan.next, args: () => [] }],
      );
      newAddress = created.deployments[`${key}Implementation`].address;
    }
    const newCode = await chain.code(newAddress);
    const newCodeHash = keccak256(newCode);
    const data = proxy.interface.encodeFunctionData("upgradeToAndCall", [newAddress, plan.call]);
    const updated: ProgramRecord = structuredClone(program);
    updated.layouts = withLayout(updated.layouts, newCode, plan.next, newAddress, dir);
    const entry = {
      contract: key,
      fromArtifact: rec.artifact,
      toArtifact: plan.next.contractName,
      oldImplementation: plan.oldImplementation,
      newImplementation: newAddress,
      at: new Date().toISOString(),
    };
    let result: UpgradeResult;
    const common = {
      ...base,
      newImplementation: newAddress,
      deployed: !plan.reuse,
      ...(plan.reusedFrom ? { reusedFrom: plan.reusedFrom } : {}),
    };
    if (sendIt) {
      const fn = proxy.connect(opts.signer!).getFunction("upgradeToAndCall");
      const gas = await chain.call(`simulate ${key}.upgradeToAndCall`, () => fn.estimateGas(newAddress, plan.call));
      chain.assertGasCap((gas * 12n) / 10n, `${key}.upgradeToAndCall`);
      const tx = await chain.call(`send ${key}.upgradeToAndCall`, () =>
        fn.send(newAddress, plan.call, { gasLimit: (gas * 12n) / 10n }),
      );
      await store?.stageTransaction(ctx, "upgrade", {
        hash: tx.hash,
        nonce: tx.nonce,
        to: rec.proxy,
        description: `${key}.upgradeToAndCall(${newAddress})`,
      });
      const receipt = await chain.receipt(tx.hash, `${key}.upgradeToAndCall`);
      updated.upgrades.push({ ...entry, status: "sent", txHash: tx.hash });
      updated.contracts[key] = {
        ...rec,
        implementation: newAddress,
        artifact: plan.next.contractName,
        implementationCodeHash: newCodeHash,
      };
      result = { ...common, tx: { hash: tx.hash, blockNumber: receipt.blockNumber }, program: updated };
    } else {
      updated.upgrades.push({ ...entry, status: "proposed" });
      const unsignedTx = { to: rec.proxy, data, from: plan.admin, chainId: program.chainId, value: 0n };
      result = { ...common, unsignedTx, program: updated };
    }
    await store?.stageAddresses(ctx, "upgrade", {
      [`${key}OldImplementation`]: plan.oldImplementation,
      [`${key}Implementation`]: newAddress,
    });
    await store?.saveProgram(updated);
    return { value: result };
  });
}
