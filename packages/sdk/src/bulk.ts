import { Interface, getAddress, type Provider, type Signer } from "ethers";
import { PointsApiError } from "./errors.js";
import { broadcastError, broadcastTx, decode, signedTx, signsRaw, waitTx } from "./chain.js";
import type { ResponseData, WaitOptions } from "./types.js";

/** A bulk route's answer (docs/rules.md#bulk-requests). */
export type BulkPlan = ResponseData<"bulkPspMint">;
export type BulkChunk = BulkPlan["chunks"][number];

/** Where one chunk stands: `landed` was on chain before this run, `mined` was sent by it. */
export interface BulkProgress {
  index: number;
  status: "landed" | "pending" | "mined" | "failed";
  hash?: string;
  error?: PointsApiError;
}

export interface BulkSendOptions extends WaitOptions {
  /** Called as every chunk moves: pending (hash known), mined, landed (found on chain), failed. */
  onProgress?: (p: BulkProgress) => void;
}

// The events of the batch forms: their metadata (not indexed) carries the chunk's tag.
const EVENTS = new Interface([
  "event PSPMinted(bytes32 indexed campaignId, address indexed minter, address indexed to, uint256 amount, string metadata)",
  "event PSPSettled(bytes32 indexed campaignId, address indexed holder, address indexed receiver, uint256 amount, string metadata)",
  "event PSPExpired(bytes32 indexed campaignId, address indexed holder, uint256 amount, string metadata)",
]);
const EVENT_OF = { mint: "PSPMinted", settle: "PSPSettled", expire: "PSPExpired" } as const;

/**
 * Indexes of the plan's chunks already on chain: the vault's events of the operation about the
 * campaign since the plan's `fromBlock` whose metadata is a chunk's (each ends with the chunk's
 * unique tag). A chunk is all or nothing, so one event of it means all of it landed.
 */
export async function landedChunks(plan: BulkPlan, provider: Provider): Promise<Set<number>> {
  const vault = plan.chunks.find((c) => c.tx)?.tx?.to;
  if (!vault) throw new PointsApiError("INVALID_INPUT", "this plan has no transactions (a dry run): build it first");
  const event = EVENTS.getEvent(EVENT_OF[plan.operation])!;
  const logs = await provider.getLogs({
    address: vault,
    topics: [event.topicHash, plan.campaignId.value],
    fromBlock: plan.fromBlock,
    toBlock: "latest",
  });
  const byMetadata = new Map(plan.chunks.map((c) => [c.metadata, c.index]));
  const landed = new Set<number>();
  for (const log of logs) {
    const parsed = EVENTS.parseLog(log);
    const index = parsed && byMetadata.get(String(parsed.args.metadata));
    if (index !== undefined && index !== null) landed.add(index);
  }
  return landed;
}

/**
 * Sends a built plan's chunks in order with `signer`, each after the previous one is mined.
 * Chunks already on chain are skipped (see {@link landedChunks}), so calling it again with the
 * same plan after a failure resumes without issuing anything twice. Every chunk is signed with
 * the signer's next mined nonce: an earlier attempt still pending has that nonce too, so at most
 * one of them can land. Keep the plan (it is JSON) until every chunk is `landed` or `mined`;
 * do not send other transactions from the signer meanwhile.
 */
export async function sendBulk(plan: BulkPlan, signer: Signer, opts: BulkSendOptions = {}): Promise<BulkProgress[]> {
  const provider = signer.provider;
  if (!provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to broadcast with");
  const from = getAddress(await signer.getAddress());
  if (from !== getAddress(plan.from)) {
    throw new PointsApiError("WRONG_SIGNER", `the plan was built for ${plan.from}; the signer is ${from}`, {
      details: { expected: getAddress(plan.from), actual: from },
    });
  }
  if (plan.chunks.some((c) => c.tx?.safe)) {
    throw new PointsApiError(
      "WRONG_SIGNER",
      "the plan's signer is a Safe: propose every chunk's safe.tx (client.bulk.propose) and execute them in order",
    );
  }
  const landed = await landedChunks(plan, provider);
  const report = (p: BulkProgress) => {
    opts.onProgress?.(p);
    return p;
  };
  const done: BulkProgress[] = [];
  let nonce: number | undefined;
  for (const chunk of plan.chunks) {
    if (landed.has(chunk.index)) {
      done.push(report({ index: chunk.index, status: "landed" }));
      continue;
    }
    let hash: string | undefined;
    try {
      const tx = decode(chunk.tx!);
      // The first chunk sent takes the signer's mined count; each next one the nonce after the
      // previous (mined) one, never a count a provider may have cached.
      nonce ??= await provider.getTransactionCount(from, "latest");
      tx.nonce = nonce;
      if (signsRaw(signer)) {
        const signed = signedTx(await signer.signTransaction(tx), { ...chunk.tx!, nonce: tx.nonce });
        hash = signed.hash;
        report({ index: chunk.index, status: "pending", hash });
        await broadcastTx(provider, signed);
      } else {
        // A plain request: a browser or JSON-RPC signer copies its own fields only, and a
        // Transaction keeps them behind getters (it would send an empty transaction).
        const request = {
          type: 2,
          to: tx.to,
          data: tx.data,
          value: tx.value,
          nonce: tx.nonce,
          gasLimit: tx.gasLimit,
          maxFeePerGas: tx.maxFeePerGas,
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
          chainId: tx.chainId,
        };
        hash = (
          await signer.sendTransaction(request).catch((e) => Promise.reject(broadcastError(e, undefined, tx.nonce)))
        ).hash;
        report({ index: chunk.index, status: "pending", hash });
      }
      await waitTx(provider, hash, opts);
      nonce += 1;
      done.push(report({ index: chunk.index, status: "mined", hash }));
    } catch (e) {
      const error =
        e instanceof PointsApiError
          ? e
          : new PointsApiError("WRONG_SIGNER", `chunk ${chunk.index + 1} was not sent: ${(e as Error).message}`, {
              details: { index: chunk.index },
              cause: e,
            });
      report({ index: chunk.index, status: "failed", hash, error });
      throw error;
    }
  }
  return done;
}
