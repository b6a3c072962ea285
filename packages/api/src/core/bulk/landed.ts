import { getAddress, type Log } from "ethers";
import type { BulkPlan } from "@points/schema";
import { ApiError } from "../errors.js";
import type { Target } from "../program/target.js";
import { INTERFACES } from "../chain/contracts.js";
import type { Row } from "./rows.js";

/** A row of a drop already on chain (`mined`) or in the node's mempool (`pending`) under its bulk id. */
export interface DoneRow {
  address: string;
  amount: bigint;
  /** The row's own metadata: the event's metadata without the chunk tag. */
  metadata: string;
  tag: string;
  index: number;
  status: "mined" | "pending";
  hash: string;
}

const EVENT = { mint: "PSPMinted", settle: "PSPSettled", expire: "PSPExpired" } as const;
const FN = { mint: "mintBatch", settle: "settleBatch", expire: "expireBatch" } as const;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Splits an on-chain metadata into the row's metadata and the chunk tag, if the tag is this bulk id's. */
function splitTag(bulkId: string, metadata: string) {
  const m = new RegExp(`(?:^| )(bulk:${escape(bulkId)}:(\\d+)/\\d+)$`).exec(metadata);
  if (!m) return undefined;
  return { metadata: metadata.slice(0, m.index), tag: m[1]!, index: Number(m[2]) };
}

/**
 * Every row of the drop `bulkId` already issued (docs/bulk-idempotency.md): the vault's events of
 * the operation about the campaign whose metadata ends with a tag of this bulk id, and the
 * signer's batch calls waiting in the node's pending block with such a tag. The bulk id is the
 * drop's idempotency key, whatever plan file the caller kept.
 */
export async function doneRows(
  t: Target,
  operation: BulkPlan["operation"],
  campaignId: string,
  bulkId: string,
  from: string,
): Promise<DoneRow[]> {
  const vault = getAddress(t.program.pspVault);
  const iface = INTERFACES.pspVault;
  const event = iface.getEvent(EVENT[operation])!;
  const logs: Log[] = await t.chain.provider.getLogs({
    address: vault,
    topics: [event.topicHash, campaignId],
    fromBlock: 0,
    toBlock: "latest",
  });
  const done: DoneRow[] = [];
  for (const log of logs) {
    const args = iface.parseLog(log)?.args;
    if (!args) continue;
    const split = splitTag(bulkId, String(args.metadata));
    if (!split) continue;
    // Mint names the recipient `to`; settle and expire name the `holder`.
    const address = getAddress(String(operation === "mint" ? args.to : args.holder));
    done.push({ address, amount: BigInt(args.amount), ...split, status: "mined", hash: log.transactionHash });
  }
  for (const tx of await pendingCalls(t, vault, from)) {
    let call;
    try {
      call = iface.parseTransaction({ data: tx.input });
    } catch {
      continue;
    }
    if (!call || call.name !== FN[operation]) continue;
    const a = call.args;
    const [holders, amounts, id, metadata] =
      operation === "mint"
        ? [a[1], a[2], a[0], a[3]]
        : operation === "settle"
          ? [a[0], a[2], a[3], a[4]]
          : [a[0], a[1], a[2], a[3]];
    if (String(id).toLowerCase() !== campaignId.toLowerCase()) continue;
    const split = splitTag(bulkId, String(metadata));
    if (!split) continue;
    (holders as string[]).forEach((h, i) =>
      done.push({
        address: getAddress(h),
        amount: BigInt((amounts as bigint[])[i]!),
        ...split,
        status: "pending",
        hash: tx.hash,
      }),
    );
  }
  return done;
}

interface PendingTx {
  hash: string;
  from: string;
  to: string | null;
  input: string;
}

/**
 * The signer's transactions to the vault in the node's pending block. A node without a pending
 * block (or one that refuses it) answers none: the chain's events still count, and the signer's
 * pending nonce keeps a chunk built now from landing beside one stuck before it.
 */
async function pendingCalls(t: Target, vault: string, from: string): Promise<PendingTx[]> {
  let block: { transactions?: PendingTx[] } | null;
  try {
    block = await t.chain.provider.send("eth_getBlockByNumber", ["pending", true]);
  } catch {
    return [];
  }
  return (block?.transactions ?? []).filter(
    (tx) =>
      typeof tx === "object" &&
      tx.to !== null &&
      getAddress(tx.to) === vault &&
      getAddress(tx.from) === from &&
      typeof tx.input === "string",
  );
}

/** One way a request differs from what its bulk id already issued. */
export interface Difference {
  address: string;
  field: "address" | "amount" | "metadata";
  issued: string;
  requested?: string;
  status: DoneRow["status"];
  hash: string;
}

/**
 * The rows still to issue, or 409 CONFLICT (`details.reason: "BULK_ID_REUSED"`) when what the bulk
 * id already issued is not part of these rows as they are: an address not in the request, or
 * one with another amount or metadata. Addresses are unique within a drop, so a row is done when
 * its address was issued under the bulk id, whatever chunking the earlier plan had.
 */
export function remainingRows(bulkId: string, rows: Row[], done: DoneRow[]): Row[] {
  const byAddress = new Map(rows.map((r) => [r.address, r]));
  const differences: Difference[] = [];
  const paid = new Set<string>();
  for (const d of done) {
    const at = { address: d.address, status: d.status, hash: d.hash };
    const row = byAddress.get(d.address);
    if (!row) differences.push({ ...at, field: "address", issued: d.amount.toString() });
    else if (row.amount !== d.amount) {
      differences.push({ ...at, field: "amount", issued: d.amount.toString(), requested: row.amount.toString() });
    } else if (row.metadata !== d.metadata) {
      differences.push({ ...at, field: "metadata", issued: d.metadata, requested: row.metadata });
    }
    paid.add(d.address);
  }
  if (differences.length) {
    throw new ApiError(
      "CONFLICT",
      `bulk id ${bulkId} already issued ${paid.size} row(s) that differ from this request in ${differences.length} place(s): nothing was built; use a new bulk id for another drop`,
      { reason: "BULK_ID_REUSED", bulkId, count: differences.length, differences: differences.slice(0, 50) },
    );
  }
  return rows.filter((r) => !paid.has(r.address));
}

/** The plan's account of what its bulk id had already issued before this build. */
export function doneSummary(done: DoneRow[]): BulkPlan["done"] {
  const chunks = new Map<string, { tag: string; hash: string; status: DoneRow["status"]; rowCount: number }>();
  for (const d of done) {
    const c = chunks.get(d.hash) ?? { tag: d.tag, hash: d.hash, status: d.status, rowCount: 0 };
    c.rowCount += 1;
    chunks.set(d.hash, c);
  }
  return {
    rowCount: new Set(done.map((d) => d.address)).size,
    totalAmount: done.reduce((s, d) => s + d.amount, 0n).toString(),
    chunks: [...chunks.values()],
    highestIndex: done.reduce((m, d) => Math.max(m, d.index), 0),
  };
}
