import { type TransactionRequest } from "ethers";
import { loadArtifact } from "./artifacts.js";
import { Chain } from "./chain.js";
import { DeployerError } from "./errors.js";
import { createAllWithSender } from "./createWithSender.js";
import {
  assertFunds,
  creationGasBound,
  creationGasLimit,
  fillTransactions,
  findOnChain,
  initCode,
  type CreateEnv,
  type CreateItem,
  type CreateResult,
} from "./createParts.js";
import { IMPLEMENTATION_ARTIFACTS, PROGRAM_CONTRACTS, type ProgramContract } from "./types.js";

export {
  assertFunds,
  creationGasBound,
  creationGasLimit,
  fillTransactions,
  findOnChain,
  initCode,
  type CreateEnv,
  type CreateItem,
  type CreateResult,
} from "./createParts.js";

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

  const hashes = await sendInOrder(
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
 * Sends `requests` (consecutive nonces, limits and fees set) one after the other in nonce order,
 * each as soon as the node took the one before (a round trip apart, so the batch still fits one
 * block interval), and records each right after it went out. In order because a node that gets
 * nonce n+1 before n may never mine it: anvil's automine leaves such a transaction in its pool
 * (foundry-rs/foundry#10122, seen here as a 5-minute wait for a release's third contract), and a
 * hosted RPC may route the two to different backends. A failed send stops the batch: nothing
 * after it could be mined, and a resumed run finds whatever did land by its nonce.
 */
async function sendInOrder(env: CreateEnv, what: string[], requests: TransactionRequest[]): Promise<string[]> {
  const { chain, signer, store, ctx, stage } = env;
  const hashes: string[] = [];
  for (const [j, request] of requests.entries()) {
    const sent = await chain.send(signer, request, what[j]);
    hashes.push(sent.hash);
    await store.stageTransaction(ctx, stage, { hash: sent.hash, nonce: sent.nonce, description: what[j] });
  }
  return hashes;
}
