import { AbiCoder, Interface, keccak256, type Signer, type TransactionRequest } from "ethers";
import { codeMatches, loadArtifact, type Artifact } from "./artifacts.js";
import { Chain } from "./chain.js";
import { DeployerError } from "./errors.js";
import { createAllWithSender } from "./create-with-sender.js";
import type { TxSender } from "./sender.js";
import {
  IMPLEMENTATION_ARTIFACTS,
  PROGRAM_CONTRACTS,
  type ContractDeployment,
  type DeploymentStore,
  type ProgramContract,
  type StageContext,
  type StageName,
} from "./types.js";

/** One contract to create with CREATE (plain deployment from the signer). */
export interface CreateItem {
  key: string;
  artifact: Artifact;
  /** Constructor arguments; may use the addresses the other items of the batch get. */
  args: (addresses: Record<string, string>) => unknown[];
  /** Extra check that an existing contract at a candidate address is this item (e.g. its version). */
  accept?: (address: string, found: Record<string, ContractDeployment>) => Promise<boolean>;
  /** The constructor reads other items of the batch, so gas cannot be estimated before they exist. */
  dependsOnBatch?: boolean;
}

export interface CreateEnv {
  chain: Chain;
  signer: Signer;
  from: string;
  store: DeploymentStore;
  ctx: StageContext;
  stage: StageName;
  /** How many of the signer's latest nonces to search for contracts sent before a crash. */
  nonceScanWindow?: number;
  /** Send through this engine (it owns the nonces) instead of the signer. */
  sender?: TxSender;
}

export interface CreateResult {
  deployments: Record<string, ContractDeployment>;
  /** Whether this call sent anything (false: everything was found on chain). */
  sent: boolean;
}

export function initCode(item: CreateItem, addresses: Record<string, string>): string {
  const ctor = new Interface(item.artifact.abi).deploy;
  const args = AbiCoder.defaultAbiCoder().encode(ctor.inputs, item.args(addresses));
  return item.artifact.bytecode + args.slice(2);
}

/**
 * The gas limit of one creation: the node's estimate plus 20%, or the upper bound when the
 * item depends on contracts of the same batch (not on chain yet); checked against the cap.
 */
export async function creationGasLimit(
  chain: Chain,
  signer: Signer,
  from: string,
  item: CreateItem,
  data: string,
): Promise<bigint> {
  const gasLimit = item.dependsOnBatch
    ? creationGasBound(data, item.artifact)
    : ((await chain.call(`estimate ${item.artifact.contractName} deployment`, () =>
        signer.estimateGas({ from, data }),
      )) *
        12n) /
      10n;
  chain.assertGasCap(gasLimit, `deploy ${item.artifact.contractName}`);
  return gasLimit;
}

/** An upper bound for a creation whose gas cannot be simulated yet (refunded when unused). */
export function creationGasBound(code: string, artifact: Artifact): bigint {
  const initBytes = BigInt((code.length - 2) / 2);
  const runtimeBytes = BigInt((artifact.deployedBytecode.length - 2) / 2);
  return 53_000n + 16n * initBytes + 200n * runtimeBytes + 1_000_000n;
}

/**
 * Upper bound of the gas a release costs (validate's balance check): the ProgramFactory and the
 * implementations it deploys, i.e. all but the `reused` ones.
 */
export function releaseGasBound(dir?: string, reused: readonly ProgramContract[] = []): bigint {
  let gas = 0n;
  const deployed = PROGRAM_CONTRACTS.filter((k) => !reused.includes(k)).map((k) => IMPLEMENTATION_ARTIFACTS[k]);
  for (const name of [...deployed, "ProgramFactory"]) {
    const artifact = loadArtifact(name, dir);
    gas += creationGasBound(artifact.bytecode, artifact);
  }
  return gas;
}

/**
 * Creates the items that are not on chain yet, all sent back to back with locally managed
 * nonces, then waits for every receipt. Before sending anything it asks the chain: it waits
 * for the signer's pending transactions, then looks for each item at the addresses of the
 * nonces the store recorded and of the signer's latest nonces (CREATE addresses are
 * deterministic), comparing runtime code with the artifact. Found items are reused, so a
 * resumed run never creates a contract twice.
 */
export async function createAll(env: CreateEnv, items: CreateItem[]): Promise<CreateResult> {
  if (env.sender) return createAllWithSender({ ...env, sender: env.sender }, items);
  const { chain, signer, from, store, ctx, stage } = env;
  const latest = await chain.settle(from);

  const recorded = (await store.getStages?.(ctx))?.[stage];
  const txByNonce = new Map<number, string>();
  for (const t of recorded?.transactions ?? []) txByNonce.set(t.nonce, t.hash);
  const candidates = new Set<number>([...Object.values(recorded?.nonces ?? {}), ...txByNonce.keys()]);
  const window = env.nonceScanWindow ?? 32;
  for (let n = Math.max(0, latest - window); n < latest; n++) candidates.add(n);
  const ordered = [...candidates].filter((n) => n < latest).sort((a, b) => b - a);

  const deployments = await findOnChain(chain, from, items, ordered);
  await fillTransactions(chain, from, deployments, txByNonce);

  const missing = items.filter((i) => !deployments[i.key]);
  if (missing.length === 0) return { deployments, sent: false };

  // Plan: the next nonces, in order. Recorded before sending so a crash right after a send
  // still leaves the address to look at.
  const addresses: Record<string, string> = {};
  for (const [k, d] of Object.entries(deployments)) addresses[k] = d.address;
  const nonces: Record<string, number> = {};
  missing.forEach((item, j) => {
    nonces[item.key] = latest + j;
    addresses[item.key] = Chain.createAddress(from, latest + j);
  });
  await store.stageAddresses(ctx, stage, addresses, { nonces });

  const fees = await chain.feeData();
  const chainId = ctx.chainId;
  // Every gas limit is known before the first send (the estimates are independent of each other).
  const requests: TransactionRequest[] = await Promise.all(
    missing.map(async (item) => {
      const data = initCode(item, addresses);
      const gasLimit = await creationGasLimit(chain, signer, from, item, data);
      return { data, gasLimit, nonce: nonces[item.key], chainId, ...fees };
    }),
  );
  await assertFunds(chain, from, requests);

  const hashes = await sendTogether(
    env,
    missing.map((item) => `deploy ${item.artifact.contractName}`),
    requests,
  );
  for (const [j, item] of missing.entries()) {
    const receipt = await chain.receipt(hashes[j], `deploy ${item.artifact.contractName}`);
    const address = receipt.contractAddress ?? addresses[item.key];
    if (address.toLowerCase() !== addresses[item.key].toLowerCase()) {
      throw new DeployerError(
        "TRANSACTION_FAILED",
        `deploy ${item.key}: created ${address}, planned ${addresses[item.key]}`,
      );
    }
    deployments[item.key] = {
      artifact: item.artifact.contractName,
      address: addresses[item.key],
      codeHash: await chain.codeHash(addresses[item.key]),
      txHash: hashes[j],
      blockNumber: receipt.blockNumber,
      nonce: nonces[item.key],
    };
  }
  return { deployments, sent: true };
}

/**
 * Sends `requests` (consecutive nonces, limits and fees set) all at once, so the node gets them
 * within one block interval instead of one round trip apart (a one-block release; ethers batches
 * the concurrent requests). Records every transaction that went out, in nonce order, then
 * throws the first failure: the sends after a failed nonce cannot be mined, and a resumed run
 * finds whatever did land by its nonce.
 */
async function sendTogether(env: CreateEnv, what: string[], requests: TransactionRequest[]): Promise<string[]> {
  const { chain, signer, store, ctx, stage } = env;
  const results = await Promise.allSettled(requests.map((r, j) => chain.send(signer, r, what[j])));
  const hashes: string[] = [];
  for (const [j, result] of results.entries()) {
    if (result.status === "rejected") throw result.reason;
    hashes.push(result.value.hash);
    await store.stageTransaction(ctx, stage, {
      hash: result.value.hash,
      nonce: result.value.nonce,
      description: what[j],
    });
  }
  return hashes;
}

/**
 * The items already on chain at the CREATE addresses of `ordered` nonces (newest first):
 * runtime code equal to the artifact's and, when the item asks, its own extra check.
 */
export async function findOnChain(
  chain: Chain,
  from: string,
  items: CreateItem[],
  ordered: number[],
): Promise<Record<string, ContractDeployment>> {
  const codes = new Map<number, string>();
  for (let i = 0; i < ordered.length; i += 8) {
    const chunk = ordered.slice(i, i + 8);
    const got = await Promise.all(chunk.map((n) => chain.code(Chain.createAddress(from, n))));
    chunk.forEach((n, j) => codes.set(n, got[j]));
  }

  const deployments: Record<string, ContractDeployment> = {};
  const used = new Set<number>();
  for (const item of items) {
    for (const n of ordered) {
      const code = codes.get(n)!;
      if (used.has(n) || !codeMatches(item.artifact, code)) continue;
      const address = Chain.createAddress(from, n);
      if (item.accept && !(await item.accept(address, deployments))) continue;
      used.add(n);
      deployments[item.key] = { artifact: item.artifact.contractName, address, codeHash: keccak256(code), nonce: n };
      break;
    }
  }
  return deployments;
}

/** Adds the creating transaction of contracts found on chain (recorded hash or nonce search). */
export async function fillTransactions(
  chain: Chain,
  from: string,
  deployments: Record<string, ContractDeployment>,
  txByNonce: Map<number, string>,
): Promise<void> {
  for (const d of Object.values(deployments)) {
    if (d.nonce === undefined) continue;
    const hash = txByNonce.get(d.nonce);
    if (hash) {
      const receipt = await chain.call(`getTransactionReceipt(${hash})`, () =>
        chain.provider.getTransactionReceipt(hash),
      );
      if (receipt) {
        d.txHash = hash;
        d.blockNumber = receipt.blockNumber;
        continue;
      }
    }
    const found = await chain.findTransaction(from, d.nonce);
    if (found) {
      d.txHash = found.hash;
      d.blockNumber = found.blockNumber;
    }
  }
}

/** INSUFFICIENT_FUNDS before sending anything, naming the amounts. */
export async function assertFunds(chain: Chain, from: string, requests: TransactionRequest[]): Promise<void> {
  let needed = 0n;
  for (const r of requests) needed += BigInt(r.gasLimit ?? 0n) * Chain.pricePerGas(r) + BigInt(r.value ?? 0n);
  const balance = await chain.balance(from);
  if (balance < needed) {
    throw new DeployerError(
      "INSUFFICIENT_FUNDS",
      `signer: ${from} holds ${balance} wei but the transactions may cost up to ${needed} wei`,
      { details: { balance: balance.toString(), needed: needed.toString() } },
    );
  }
}
