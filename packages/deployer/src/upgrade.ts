import { getAddress, type Provider, type Signer } from "ethers";
import { artifactNames, codeMatches, loadArtifact, type Artifact } from "./artifacts.js";
import { Chain, type ChainOptions } from "./chain.js";
import { createAll } from "./create-transactions.js";
import { DeployerError } from "./errors.js";
import { runStage } from "./stage.js";
import { noStore } from "./store.js";
import { PROGRAM_CONTRACTS, type DeploymentStore, type ProgramContract, type ProgramRecord } from "./types.js";
import { assertUpgradeSafe, type SafetyOptions } from "./upgrade-safety.js";
import { programContract } from "./verify.js";

/** A new implementation: an artifact name of @points/contracts, an artifact, or an ethers ContractFactory. */
export type ImplementationSource = string | Artifact | { bytecode: string };

export interface UpgradeOptions extends ChainOptions, SafetyOptions {
  /** Deploys the new implementation; also sends the upgrade when it holds DEFAULT_ADMIN_ROLE. */
  signer?: Signer;
  /** For reads when no signer is given (with `implementation`). */
  provider?: Provider;
  /** false: never send, always return the unsigned transaction; true: fail unless `signer` is the admin. */
  send?: boolean;
  /** The new implementation is already deployed here (its code is checked against the artifact). */
  implementation?: string;
  /** Calldata for upgradeToAndCall (default none). Initializer checks then apply to the new version. */
  call?: string;
  /** Records the upgrade (and the implementation deployment's stage) here. */
  store?: DeploymentStore;
}

export interface UpgradeResult {
  contract: ProgramContract;
  oldImplementation: string;
  newImplementation: string;
  /** The upgrade transaction, when sent. */
  tx?: { hash: string; blockNumber: number };
  /** The transaction for the admin to sign, when not sent. */
  unsignedTx?: { to: string; data: string; from: string; chainId: bigint; value: bigint };
  /** The record with the upgrade added (saved to `store` when given). */
  program: ProgramRecord;
}

function contractKey(name: string): ProgramContract {
  const key = PROGRAM_CONTRACTS.find((k) => k.toLowerCase() === name.toLowerCase());
  if (!key)
    throw new DeployerError("INVALID_CONFIG", `contract: "${name}" is not one of ${PROGRAM_CONTRACTS.join(", ")}`);
  return key;
}

function resolveArtifact(source: ImplementationSource, dir?: string): Artifact {
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
 * Upgrades one contract of a program. OpenZeppelin's upgrades tooling first compares the
 * storage layout of the implementation the program runs with the new one (both from
 * build-info) and refuses an unsafe upgrade (UNSAFE_UPGRADE naming the problem) before any
 * transaction. Then the new implementation is deployed (unless given) and upgradeToAndCall is
 * sent by the admin, or returned unsigned for the admin to sign.
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
  const key = contractKey(contractName);
  const rec = program.contracts[key];
  if (!rec) throw new DeployerError("INVALID_CONFIG", `contract: program ${program.brand} has no ${key}`);
  const current = loadArtifact(rec.artifact, dir);
  const next = resolveArtifact(newImplementation, dir);
  const call = opts.call ?? "0x";
  assertUpgradeSafe(current, next, { ...opts, initializerRuns: call !== "0x" });

  const runner = opts.signer ?? opts.provider;
  if (!runner) throw new DeployerError("INVALID_CONFIG", "signer: a signer or a provider is required");
  const chain = Chain.of(runner, opts);
  const ctx = { chainId: program.chainId, brand: program.brand };
  const store = opts.store;
  return runStage(store ?? noStore, ctx, "upgrade", async () => {
    const proxy = programContract(program, key, chain.provider, dir);
    const oldImplementation = await chain.implementationOf(rec.proxy);
    if (oldImplementation !== getAddress(rec.implementation)) {
      throw new DeployerError(
        "VERIFY_FAILED",
        `${key}: runs ${oldImplementation}, but the record says ${rec.implementation}; refresh the record first`,
      );
    }
    const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => proxy.defaultAdmin()));
    const from = opts.signer ? await chain.addressOf(opts.signer) : undefined;
    const sendIt = opts.send ?? from === admin;
    if (sendIt && from !== admin) {
      throw new DeployerError("WRONG_KEY", `signer: ${from ?? "none"} is not the admin (${admin}) of ${key}`);
    }

    let newAddress: string;
    if (opts.implementation) {
      newAddress = getAddress(opts.implementation);
      if (!codeMatches(next, await chain.code(newAddress))) {
        throw new DeployerError("INVALID_CONFIG", `implementation: ${newAddress} does not hold ${next.contractName}`);
      }
    } else {
      if (!opts.signer || !from) {
        throw new DeployerError("INVALID_CONFIG", "signer: needed to deploy the new implementation");
      }
      const created = await createAll(
        { chain, signer: opts.signer, from, store: store ?? noStore, ctx, stage: "upgrade" },
        [{ key: `${key}Implementation`, artifact: next, args: () => [] }],
      );
      newAddress = created.deployments[`${key}Implementation`].address;
    }

    const data = proxy.interface.encodeFunctionData("upgradeToAndCall", [newAddress, call]);
    const updated: ProgramRecord = structuredClone(program);
    const entry = {
      contract: key,
      fromArtifact: rec.artifact,
      toArtifact: next.contractName,
      oldImplementation,
      newImplementation: newAddress,
      at: new Date().toISOString(),
    };
    let result: UpgradeResult;
    if (sendIt) {
      const fn = proxy.connect(opts.signer!).getFunction("upgradeToAndCall");
      const gas = await chain.call(`simulate ${key}.upgradeToAndCall`, () => fn.estimateGas(newAddress, call));
      const tx = await chain.call(`send ${key}.upgradeToAndCall`, () =>
        fn.send(newAddress, call, { gasLimit: (gas * 12n) / 10n }),
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
        artifact: next.contractName,
        implementationCodeHash: await chain.codeHash(newAddress),
      };
      result = {
        contract: key,
        oldImplementation,
        newImplementation: newAddress,
        tx: { hash: tx.hash, blockNumber: receipt.blockNumber },
        program: updated,
      };
    } else {
      updated.upgrades.push({ ...entry, status: "proposed" });
      const unsignedTx = { to: rec.proxy, data, from: admin, chainId: program.chainId, value: 0n };
      result = { contract: key, oldImplementation, newImplementation: newAddress, unsignedTx, program: updated };
    }
    await store?.stageAddresses(ctx, "upgrade", {
      [`${key}OldImplementation`]: oldImplementation,
      [`${key}Implementation`]: newAddress,
    });
    await store?.saveProgram(updated);
    return { value: result };
  });
}
