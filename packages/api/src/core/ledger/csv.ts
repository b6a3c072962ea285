import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getAddress } from "ethers";
import { stringify } from "csv-stringify";
import type { Queryable } from "../db/db.js";
import { filterSql, type EventFilter, type HistoryRow } from "./read.js";

/** The export's columns (docs in the schema's exports.ts and the API README). */
export const CSV_COLUMNS = [
  "blockNumber",
  "logIndex",
  "time",
  "txHash",
  "contract",
  "address",
  "event",
  "campaignId",
  "from",
  "to",
  "amount",
  "metadata",
  "args",
] as const;

// Rows read per query: bounded memory whatever the history's length.
const PAGE = 1000;

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** The events of a program matching `filter` up to block `at`, oldest first, a page per query. */
async function* rows(db: Queryable, programId: string, filter: EventFilter, at: number | null) {
  if (at === null) return;
  const [where, value] = filterSql(filter);
  let after: [number, number] = [-1, -1];
  for (;;) {
    const page = await db.query<HistoryRow>(
      `SELECT block_number, log_index, tx_hash, block_time, contract, address, event, campaign_id, args
       FROM ledger_events
       WHERE program_id = $1 AND ${where} AND block_number <= $3 AND (block_number, log_index) > ($4, $5)
       ORDER BY block_number, log_index LIMIT $6`,
      [programId, value, at, after[0], after[1], PAGE],
    );
    for (const r of page) {
      const args = (typeof r.args === "string" ? JSON.parse(r.args) : r.args) as Record<string, unknown>;
      yield [
        Number(r.block_number),
        r.log_index,
        new Date(Number(r.block_time) * 1000).toISOString(),
        r.tx_hash,
        r.contract,
        getAddress(r.address),
        r.event ?? "",
        r.campaign_id ?? "",
        text(args.from ?? args.holder ?? args.requester),
        text(args.to ?? args.account),
        text(args.amount ?? args.value),
        text(args.metadata),
        JSON.stringify(args),
      ];
    }
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = [Number(last.block_number), last.log_index];
  }
}

/**
 * Streams the matching events as CSV into `out`, with backpressure. Quoting is csv-stringify's
 * (RFC 4180); `escape_formulas` prefixes cells a spreadsheet would run as a formula (brands and
 * campaign admins write metadata) with a quote.
 */
export async function writeEventsCsv(
  db: Queryable,
  programId: string,
  filter: EventFilter,
  at: number | null,
  out: Writable,
): Promise<void> {
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], escape_formulas: true, eof: true });
  await pipeline(Readable.from(rows(db, programId, filter, at)), csv, out);
}
