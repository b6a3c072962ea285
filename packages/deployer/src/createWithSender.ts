import type { TransactionRequest } from "ethers";
import { Chain } from "./chain.js";
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
import { DeployerError } from "./errors.js";
import type { TxSender } from "./sender.js";
import type { ContractDeployment, DeploymentStore, StageContext, StageName, StageRecord, TxInfo } from "./types.js";

/**
 * createAll through a transaction engine: the engine hands out the nonces, so other callers'
 * transactions share the blocks. Resuming needs no wait for the whole account: only the
 * nonces this stage recorded (before it sent anything) are settled and searched.
 */
export async function createAllWithSender(
  env: CreateEnv & { sender: TxSender },
  items: CreateItem[],
): Promise<CreateResult> {
  const { chain, signer, store, ctx, stage, sender } = env;
  const from = sender.from;
  const recorded = (await store.getStages?.(ctx))?.[stage];
  const txByNonce = new Map<number, string>();
  for (const t of recorded?.transactions ?? []) txByNonce.set(t.nonce, t.hash);
  const candidates = [...new Set<number>([...Object.values(recorded?.nonces ?? {}), ...txByNonce.keys()])];
  await settleRecorded(sender, store, ctx, stage, recorded, candidates);
  const latest = await chain.nonce(from, "latest");
  const ordered = candidates.filter((n) => n < latest).sort((a, b) => b - a);

  const deployments = await findOnChain(chain, from, items, ordered);
  await fillTransactions(chain, from, deployments, txByNonce);
  const missing = items.filter((i) => !deployments[i.key]);
  if (missing.length === 0) return { deployments, sent: false };

  const what = missing.map((item) => `deploy ${item.artifact.contractName}`);
  // Gas and funds are checked before the engine's lock (other callers wait while it is held),
  // on addresses planned from the current nonce: constructor gas does not depend on them.
  const addresses: Record<string, string> = {};
  const plan = (first: number) => {
    for (const [k, d] of Object.entries(deployments)) addresses[k] = d.address;
    missing.forEach((item, j) => (addresses[item.key] = Chain.createAddress(from, first + j)));
  };
  plan(latest);
  const gas = await Promise.all(
    missing.map((item) => creationGasLimit(chain, signer, from, item, initCode(item, addresses))),
  );
  const fees = await chain.feeData();
  await assertFunds(
    chain,
    from,
    gas.map((gasLimit) => ({ gasLimit, ...fees })),
  );

  const nonces: Record<string, number> = {};
  const sent = await sender.sendBatch(
    missing.length,
    async (first) => {
      plan(first);
      missing.forEach((item, j) => (nonces[item.key] = first + j));
      // Recorded before sending: a crash right after a send still leaves the address to look at.
      await store.stageAddresses(ctx, stage, addresses, { nonces });
      return missing.map((item, j) => {
        const data = initCode(item, addresses);
        // A bound that depends on the final addresses' bytes is computed again on them.
        const gasLimit = item.dependsOnBatch ? creationGasBound(data, item.artifact) : gas[j];
        return { data, gasLimit, chainId: ctx.chainId } satisfies TransactionRequest;
      });
    },
    (j, hash, nonce, raw) => store.stageTransaction(ctx, stage, { hash, nonce, description: what[j], raw }),
  );

  for (const [j, item] of missing.entries()) {
    const receipt = await sender.wait(sent[j].nonce, what[j]);
    if (receipt.status !== 1)
      throw new DeployerError("TRANSACTION_FAILED", `${what[j]}: transaction ${receipt.hash} reverted`);
    const planned = addresses[item.key];
    if ((receipt.contractAddress ?? planned).toLowerCase() !== planned.toLowerCase()) {
      throw new DeployerError(
        "TRANSACTION_FAILED",
        `deploy ${item.key}: created ${receipt.contractAddress}, planned ${planned}`,
      );
    }
    deployments[item.key] = {
      artifact: item.artifact.contractName,
      address: planned,
      codeHash: await chain.codeHash(planned),
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
      nonce: sent[j].nonce,
    } satisfies ContractDeployment;
  }
  return { deployments, sent: true };
}

/**
 * Settles, lowest first, every nonce a stage's earlier runs planned or sent (`nonces`, default
 * the recorded transactions'): each one's last recorded signed transaction goes out again as it
 * was if the node does not hold the nonce (docs/architecture.md#transaction-engine), so what the
 * chain shows afterwards is final.
 */
export async function settleRecorded(
  sender: TxSender,
  store: DeploymentStore,
  ctx: StageContext,
  stage: StageName,
  recorded: StageRecord | undefined,
  nonces?: number[],
): Promise<void> {
  const last = new Map<number, TxInfo>();
  for (const t of recorded?.transactions ?? []) last.set(t.nonce, t);
  const all = [...new Set(nonces ?? last.keys())].sort((a, b) => a - b);
  // In order: a transaction sent again must not wait behind a lower nonce that is not.
  for (const n of all) {
    const t = last.get(n);
    const resume = t?.raw
      ? {
          raw: t.raw,
          onSigned: (hash: string, raw: string) =>
            store.stageTransaction(ctx, stage, { hash, nonce: n, to: t.to, description: t.description, raw }),
        }
      : undefined;
    await sender.settleNonce(n, resume);
  }
}
