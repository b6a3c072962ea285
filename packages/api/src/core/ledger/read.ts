import { getAddress } from "ethers";
import type { Queryable } from "../db/db.js";
import type { PlacedEvent } from "./state.js";
import type { LedgerContract } from "./decode.js";

/**
 * The last block of a program in the ledger (every answer about it is consistent with that
 * block), or null while the indexer has not reached it.
 */
export async function programBlock(db: Queryable, chainId: string, programId: string): Promise<number | null> {
  const [row] = await db.query<{ synced_to: string | number; from_block: string | number }>(
    "SELECT synced_to, from_block FROM ledger_programs WHERE chain_id = $1 AND program_id = $2",
    [chainId, programId],
  );
  if (!row || Number(row.synced_to) < Number(row.from_block)) return null;
  return Number(row.synced_to);
}

/** The program's Factory events up to block `at` (redemption requests, the redeem delay). */
export async function factoryEventsAt(db: Queryable, programId: string, at: number | null): Promise<PlacedEvent[]> {
  if (at === null) return [];
  const rows = await db.query<HistoryRow>(
    `SELECT block_number, log_index, tx_hash, block_time, contract, address, event, campaign_id, args
     FROM ledger_events
     WHERE program_id = $1 AND block_number <= $2 AND event IS NOT NULL AND contract = 'factory'
     ORDER BY block_number, log_index`,
    [programId, at],
  );
  return rows.map((r) => ({
    event: r.event!,
    args: typeof r.args === "string" ? JSON.parse(r.args) : r.args,
    contract: r.contract,
    address: getAddress(r.address),
    blockNumber: Number(r.block_number),
    logIndex: r.log_index,
    txHash: r.tx_hash,
    time: Number(r.block_time),
  }));
}

export interface HistoryRow {
  block_number: string | number;
  log_index: number;
  tx_hash: string;
  block_time: string | number;
  contract: LedgerContract;
  address: string;
  event: string | null;
  campaign_id: string | null;
  args: Record<string, unknown> | string;
}

/** An event as the ledger routes answer it (and webhook deliveries carry it). */
export const ledgerEventView = (r: HistoryRow) => ({
  blockNumber: Number(r.block_number),
  logIndex: r.log_index,
  txHash: r.tx_hash,
  time: blockTimeIso(r.block_time),
  contract: r.contract,
  address: getAddress(r.address),
  event: r.event,
  campaignId: r.campaign_id,
  args: (typeof r.args === "string" ? JSON.parse(r.args) : r.args) as Record<string, unknown>,
});

/** A block's time (seconds, as the ledger stores it) as every answer gives it: ISO 8601. */
export const blockTimeIso = (seconds: string | number) => new Date(Number(seconds) * 1000).toISOString();

/** Which events a page holds: those touching an account, or of the named events. */
export type EventFilter = { account: string } | { events: string[] } | { campaignId: string };

/** The SQL condition of `filter` on ledger_events, with its one parameter as $2. */
export function filterSql(filter: EventFilter): [string, string | string[]] {
  return "account" in filter
    ? ["accounts @> ARRAY[$2]::text[]", filter.account.toLowerCase()]
    : "campaignId" in filter
      ? ["campaign_id = $2", filter.campaignId]
      : ["event = ANY($2::text[])", filter.events];
}

/**
 * Events of a program matching `filter` up to block `at`, newest first, one page. With `metadata`,
 * only events whose `metadata` argument is exactly that text (an order's lookup by its tag).
 */
export async function eventsPage(
  db: Queryable,
  programId: string,
  filter: EventFilter,
  at: number | null,
  cursor: string | undefined,
  limit: number,
  metadata?: string,
) {
  if (at === null) return { events: [], nextCursor: null };
  // The cursor is `block.logIndex` of the previous page's last event (format checked by the route).
  const [before, beforeIndex] = cursor ? cursor.split(".").map(Number) : [at + 1, 0];
  const [where, value] = filterSql(filter);
  const rows = await db.query<HistoryRow>(
    `SELECT block_number, log_index, tx_hash, block_time, contract, address, event, campaign_id, args
     FROM ledger_events
     WHERE program_id = $1 AND ${where} AND block_number <= $3
       AND (block_number, log_index) < ($4, $5)
       ${metadata === undefined ? "" : "AND args->>'metadata' = $7"}
     ORDER BY block_number DESC, log_index DESC LIMIT $6`,
    [programId, value, at, before, beforeIndex, limit + 1, ...(metadata === undefined ? [] : [metadata])],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    events: page.map(ledgerEventView),
    nextCursor: rows.length > limit && last ? `${last.block_number}.${last.log_index}` : null,
  };
}
