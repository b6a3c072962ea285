import { Interface, getAddress, type Provider, type Signer } from "ethers";
import { PointsApiError } from "./errors.js";
import { broadcastError, broadcastTx, decode, fromNode, signedTx, signsRaw, stopIfAborted, waitTx } from "./chain.js";
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

export interface BulkSendOptions extends WaitOptions, Pick<LandedOptions, "sinceBlock"> {
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

/** Where to look for a drop's chunks on chain. */
export interface LandedOptions {
  /** The PSPVault (default: the plan's transactions' target; a dry run has none, so the client reads the program). */
  vault?: string;
  /**
   * First block searched (default 0: the chain's whole history, so a drop re-planned under the
   * same bulk id, whose new plan starts later, still finds what landed; pass the program's
   * deploy block on a chain whose node limits log ranges).
   */
  sinceBlock?: number;
}

/**
 * Indexes of the plan's chunks already on chain: the vault's events of the operation about the
 * campaign whose metadata is a chunk's (each ends with the chunk's unique tag). A chunk is all or
 * nothing, so one event of it means all of it landed. The bulk id is an idempotency key: events
 * tagged with this bulk id that are no chunk of this plan (another chunking, other metadata) are
 * CONFLICT, and nothing should be sent.
 */
export async function landedChunks(plan: BulkPlan, provider: Provider, opts: LandedOptions = {}): Promise<Set<number>> {
  const vault = opts.vault ?? plan.chunks.find((c) => c.tx)?.tx?.to;
  if (!vault) throw new PointsApiError("INVALID_INPUT", "this plan has no transactions (a dry run): name the vault");
  const event = EVENTS.getEvent(EVENT_OF[plan.operation])!;
  const logs = await fromNode("the bulk chunks' events", () =>
    provider.getLogs({
      address: vault,
      topics: [event.topicHash, plan.campaignId.value],
      fromBlock: opts.sinceBlock ?? 0,
      toBlock: "latest",
    }),
  );
  const byMetadata = new Map(plan.chunks.map((c) => [c.metadata, c.index]));
  const ownTag = `bulk:${plan.bulkId}:`;
  const landed = new Set<number>();
  const foreign = new Set<string>();
  for (const log of logs) {
    const metadata = String(EVENTS.parseLog(log)?.args.metadata ?? "");
    const index = byMetadata.get(metadata);
    if (index !== undefined) landed.add(index);
    else {
      const tagged = new RegExp(`${escape(ownTag)}(\\d+)/\\d+$`).exec(metadata);
      if (!tagged) continue;
      // A dry run is chunked without simulation, not as the drop was: it reports the chunks
      // on chain under its bulk id (by their tag's index) instead of refusing.
      if (plan.dryRun) landed.add(Number(tagged[1]) - 1);
      else foreign.add(metadata);
    }
  }
  if (foreign.size > 0) {
    // Planned again, rows may chunk otherwise (gas per row moves with the chain's state). A drop
    // whose every chunk 1..n is on chain is done: the bulk id answers "done", nothing is sent.
    // A partial drop under other chunking cannot be mapped onto this plan's rows: refused.
    const counts = new Map<string, Set<string>>();
    for (const m of foreign) {
      const [, i, n] = /:(\d+)\/(\d+)$/.exec(m)!;
      counts.set(n!, (counts.get(n!) ?? new Set()).add(i!));
    }
    if ([...counts].some(([n, seen]) => seen.size === Number(n))) {
      return new Set(plan.chunks.map((c) => c.index));
    }
    throw new PointsApiError(
      "CONFLICT",
      `bulk id ${plan.bulkId} has part of a drop on chain chunked otherwise than this plan (${foreign.size} chunks): nothing was sent; send that drop's own plan file to finish it`,
      { details: { bulkId: plan.bulkId, onChain: [...foreign].slice(0, 20) } },
    );
  }
  return landed;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Sends a built plan's chunks in order with `signer`, each after the previous one is mined.
 * Chunks already on chain are skipped (see {@link landedChunks}), so calling it again after a
 * failure, with the same plan or one built again for the same rows and bulk id, resumes without
 * issuing anything twice. Every chunk is signed with
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
  const landed = await landedChunks(plan, provider, { sinceBlock: opts.sinceBlock });
  const report = (p: BulkProgress) => {
    opts.onProgress?.(p);
    return p;
  };
  const done: BulkProgress[] = [];
  let nonce: number | undefined;
  for (const chunk of plan.chunks) {
    // Between chunks only: a chunk broadcast is waited for (ABORTED at "broadcast" with its hash).
    stopIfAborted(opts.signal, "queued");
    if (landed.has(chunk.index)) {
      done.push(report({ index: chunk.index, status: "landed" }));
      continue;
    }
    let hash: string | undefined;
    try {
      const tx = decode(chunk.tx!);
      // The first chunk sent takes the signer's mined count; each next one the nonce after the
      // previous (mined) one, never a count a provider may have cached.
      nonce ??= await fromNode("the signer's mined nonce", () => provider.getTransactionCount(from, "latest"));
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
