import { createHash } from "node:crypto";
import { ZeroAddress } from "ethers";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { BULK_ROWS_MAX, MAX_UINT256 } from "@points/schema";
import { ApiError } from "../errors.js";
import { parseTokenAmount } from "./amount.js";
import { CsvLimit, readCsvRecords, slices, type CsvRecord } from "./csvStream.js";

/** A row as sent, before its content is checked; `line` is its line in the CSV text. */
export interface RawRow {
  address: string;
  amount: string;
  metadata?: string;
  line?: number;
  /** CSV only: how many columns the line had. */
  columns?: number;
}

/** A checked row: `row` is its 1-based number among the request's rows. */
export interface Row {
  row: number;
  address: string;
  amount: bigint;
  metadata: string;
}

export interface RowProblem {
  row: number;
  line?: number;
  field: "address" | "amount" | "metadata" | "columns" | "csv";
  reason: string;
}

const HEADER = ["address", "amount", "metadata"];

/** EIP-55 form of a lowercase 0x address: one keccak, no re-validation (10,000 rows a request). */
function checksum(lower: string): string {
  const hex = lower.slice(2);
  const hash = keccak_256(Buffer.from(hex, "latin1"));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}
const METADATA_MAX = 4096;

const invalidRows = (problems: RowProblem[]) =>
  new ApiError(
    "INVALID_ROWS",
    `${problems.length} bad row${problems.length === 1 ? "" : "s"}: nothing was built (see details.rows)`,
    { count: problems.length, rows: problems },
  );

/**
 * The rows of a CSV text (`address,amount[,metadata]`, optional header, RFC 4180 quoting) or
 * of the JSON array. A CSV syntax error or a wrong column count is a bad row, answered with the
 * rest; more than BULK_ROWS_MAX rows is a bad request. The CSV is read in slices and reading
 * stops at the first bound crossed (rows, columns, line length: src/bulk/csvStream.ts).
 */
export async function readRows(recipients: string | RawRow[]): Promise<RawRow[]> {
  if (typeof recipients !== "string") return recipients;
  let records: CsvRecord[];
  try {
    // A header line is one more record than the rows it heads.
    records = await readCsvRecords(slices(recipients), BULK_ROWS_MAX + 1);
  } catch (e) {
    if (!(e instanceof CsvLimit)) throw e;
    if (e.kind === "rows") throw tooManyRows();
    const field = e.kind === "columns" ? "columns" : "csv";
    throw invalidRows([{ row: 0, line: e.line, field, reason: e.message }]);
  }
  const first = records[0]?.record.map((c) => c.toLowerCase());
  const hasHeader = first !== undefined && first[0] === "address";
  if (hasHeader && !(first.length <= 3 && first.every((c, i) => c === HEADER[i]) && first.length >= 2)) {
    throw invalidRows([
      { row: 0, line: 1, field: "columns", reason: "the header must be address,amount or address,amount,metadata" },
    ]);
  }
  const data = hasHeader ? records.slice(1) : records;
  if (data.length === 0) throw new ApiError("INVALID_INPUT", "body.recipients: the CSV holds no rows");
  if (data.length > BULK_ROWS_MAX) throw tooManyRows();
  return data.map(({ record, line }) => ({
    address: record[0] ?? "",
    amount: record[1] ?? "",
    metadata: record[2],
    line,
    columns: record.length,
  }));
}

const tooManyRows = () => new ApiError("INVALID_INPUT", `body.recipients: must hold at most ${BULK_ROWS_MAX} rows`);

/**
 * Checks every row (docs/rules.md#bulk-requests) and answers all bad rows at once. Rules:
 * addresses all lower, all upper or EIP-55 checksummed, never zero; an address appears once
 * (a later row with it is refused, naming the first); amounts in token units, above 0, with at
 * most `decimals` decimals; the total fits in uint256.
 */
export function checkRows(raw: RawRow[], decimals: number, defaultMetadata: string): Row[] {
  const problems: RowProblem[] = [];
  const seen = new Map<string, number>();
  const rows: Row[] = [];
  let total = 0n;
  raw.forEach((r, i) => {
    const row = i + 1;
    const at = { row, ...(r.line === undefined ? {} : { line: r.line }) };
    const bad = (field: RowProblem["field"], reason: string) => problems.push({ ...at, field, reason });
    if (r.columns !== undefined && (r.columns < 2 || r.columns > 3)) {
      return bad("columns", `has ${r.columns} columns; expected address,amount[,metadata]`);
    }
    let address: string | undefined;
    const lower = r.address.toLowerCase();
    // One keccak a row: a mixed-case address is valid when it is its own EIP-55 form.
    const checksummed = /^0x[0-9a-f]{40}$/.test(lower) && r.address.startsWith("0x") ? checksum(lower) : undefined;
    const mixed = r.address.slice(2) !== lower.slice(2) && r.address.slice(2) !== r.address.slice(2).toUpperCase();
    if (!checksummed) bad("address", "must be 0x followed by 40 hex digits");
    else if (mixed && r.address !== checksummed) {
      bad("address", "has a wrong EIP-55 checksum (mixed case): check for a typo, or send it in lowercase");
    } else if (checksummed === ZeroAddress) bad("address", "must not be the zero address");
    else {
      address = checksummed;
      const first = seen.get(address);
      if (first !== undefined) bad("address", `duplicates row ${first}: an address may appear once`);
      else seen.set(address, row);
    }
    const amount = parseTokenAmount(r.amount, decimals);
    if (typeof amount === "string") bad("amount", amount);
    const metadata = r.metadata === undefined || r.metadata === "" ? defaultMetadata : r.metadata;
    if (metadata.length > METADATA_MAX) bad("metadata", `must be at most ${METADATA_MAX} characters`);
    if (address && typeof amount === "bigint") {
      total += amount;
      rows.push({ row, address, amount, metadata });
    }
  });
  if (total > MAX_UINT256) {
    problems.push({ row: raw.length, field: "amount", reason: "the total of the rows exceeds uint256" });
  }
  if (problems.length) throw invalidRows(problems);
  return rows;
}

/**
 * The default bulk id: the same request always gets the same one (docs/rules.md#bulk-requests).
 * SHA-256 (native) rather than keccak: it only names the drop.
 */
export function deriveBulkId(parts: string[], rows: Row[]): string {
  const h = createHash("sha256").update(parts.join("\n"));
  for (const r of rows) h.update(`\n${r.address},${r.amount},${r.metadata.length}:${r.metadata}`);
  return h.digest("hex").slice(0, 16);
}
