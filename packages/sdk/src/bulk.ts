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
 * nothing, so one event of it means all of it landed. The bulk id is an idempotency key
 * (docs/bulk-idempotency.md): rows issued under it by another plan (a lost plan file, other
 * chunking) count by address, as the API counts them when it builds; a chunk all of whose rows
 * were issued so is landed, and one holding only part of them is 409 CONFLICT (`BULK_ID_REUSED`):
 * nothing should be sent, build the plan again and the API leaves those rows out.
 */
export async function landedChunks(plan: BulkPlan, provider: Provider, opts: LandedOptions = {}): Promise<Set<number>> {
  // A built plan without chunks: the API found the whole drop already issued under its bulk id.
  if (!plan.dryRun && plan.chunks.length === 0) return new Set();
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
  const ownTag = new RegExp(`(?:^| )bulk:${escape(plan.bulkId)}:(\\d+)/\\d+$`);
  const landed = new Set<number>();
  // Rows issued under this bulk id by chunks of another plan: address -> amount and event metadata.
  const elsewhere = new Map<string, { amount: bigint; metadata: string }>();
  for (const log of logs) {
    const args = EVENTS.parseLog(log)?.args;
    const metadata = String(args?.metadata ?? "");
    const index = byMetadata.get(metadata);
    if (index !== undefined) {
      landed.add(index);
      continue;
    }
    const tagged = ownTag.exec(metadata);
    if (!tagged || !args) continue;
    // A dry run is chunked without simulation, not as the drop was: it reports the chunks
    // on chain under its bulk id (by their tag's index) instead of refusing.
    if (plan.dryRun) landed.add(Number(tagged[1]) - 1);
    const address = getAddress(String(plan.operation === "mint" ? args.to : args.holder));
    elsewhere.set(address, { amount: BigInt(args.amount), metadata: metadata.slice(0, tagged.index) });
  }
  if (plan.dryRun || elsewhere.size === 0) return landed;
  const overlaps: { index: number; issued: number; rows: number }[] = [];
  for (const chunk of plan.chunks) {
    if (landed.has(chunk.index)) continue;
    const rows = chunkRows(plan.operation, chunk);
    const chunkMetadata = chunk.metadata.slice(0, Math.max(0, chunk.metadata.length - chunk.tag.length - 1));
    const issued = rows.filter((r) => {
      const e = elsewhere.get(r.address);
      return e !== undefined && e.amount === r.amount && e.metadata === chunkMetadata;
    });
    const touched = rows.filter((r) => elsewhere.has(r.address));
    if (issued.length === rows.length && rows.length > 0) landed.add(chunk.index);
    else if (touched.length > 0) overlaps.push({ index: chunk.index, issued: touched.length, rows: rows.length });
  }
  if (overlaps.length > 0) {
    throw new PointsApiError(
      "CONFLICT",
      `bulk id ${plan.bulkId} already issued rows of ${overlaps.length} chunk(s) of this plan under other chunks: nothing was sent; build the plan again (the API leaves issued rows out)`,
      { details: { reason: "BULK_ID_REUSED", bulkId: plan.bulkId, chunks: overlaps.slice(0, 20) } },
    );
  }
  return landed;
}

/** A built chunk's rows, from its call's arguments (mint: id, to[], amounts[]; settle: holders[], receivers[], amounts[]; expire: holders[], amounts[]). */
function chunkRows(operation: BulkPlan["operation"], chunk: BulkChunk): { address: string; amount: bigint }[] {
  const args = (chunk.tx?.call?.args ?? []) as unknown[];
  const [holders, amounts] =
    operation === "mint" ? [args[1], args[2]] : operation === "settle" ? [args[0], args[2]] : [args[0], args[1]];
  if (!Array.isArray(holders) || !Array.isArray(amounts)) return [];
  return holders.map((h, i) => ({ address: getAddress(String(h)), amount: BigInt(String(amounts[i])) }));
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
