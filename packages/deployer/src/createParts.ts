// The pieces of a CREATE batch that createTransactions.ts (direct sends) and createWithSender.ts
// (sends through the engine) share: apart from both so neither imports the other back.
import { AbiCoder, keccak256, type Signer, type TransactionRequest } from "ethers";
import { artifactInterface, codeMatches, type Artifact } from "./artifacts.js";
import { Chain } from "./chain.js";
import { DeployerError } from "./errors.js";
import type { TxSender } from "./sender.js";
import type { ContractDeployment, DeploymentStore, StageContext, StageName } from "./types.js";

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
  const ctor = artifactInterface(item.artifact).deploy;
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
