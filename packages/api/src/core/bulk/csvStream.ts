import { Readable } from "node:stream";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { parse, CsvError } from "csv-parse";
import { BULK_ROWS_MAX } from "@points/schema";

/**
 * Bounds of a CSV body (docs/rules.md#bulk-requests). The body is read in CSV_CHUNK slices
 * with a turn of the event loop between them, and reading stops at the first bound crossed:
 * a 2 MB body of one-character lines used to block every request for seconds.
 */
export const CSV_CHUNK = 16 * 1024;
/** Columns a line may have before reading stops (a good line has 2 or 3). */
export const CSV_COLUMNS_MAX = 16;
/** Characters a line may hold: address, amount and 4,096 characters of metadata fit easily. */
export const CSV_LINE_MAX = 8 * 1024;

/** A CSV record as read: its fields and the line it ended on. */
export interface CsvRecord {
  record: string[];
  line: number;
}

/** Why reading stopped before the end: the caller turns it into its own answer. */
export class CsvLimit extends Error {
  constructor(
    readonly kind: "rows" | "columns" | "line" | "syntax",
    readonly line: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The text in CSV_CHUNK slices, yielding to the event loop before each one. */
export async function* slices(text: string, size = CSV_CHUNK): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) {
    await yieldToLoop();
    yield text.slice(at, at + size);
  }
}

class TooManyColumns extends Error {
  constructor(readonly lines: number) {
    super("too many columns");
  }
}

/**
 * The records of a CSV source, at most `maxRecords` (more throws CsvLimit "rows" without reading
 * the rest of the source), each line at most CSV_COLUMNS_MAX columns and CSV_LINE_MAX characters.
 */
export async function readCsvRecords(
  source: AsyncIterable<string> | Iterable<string>,
  maxRecords = BULK_ROWS_MAX + 1,
): Promise<CsvRecord[]> {
  const parser = parse({
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    bom: true,
    max_record_size: CSV_LINE_MAX,
    // Called on each field as it ends: a line of 1,000,000 commas stops at its 17th field.
    cast: (value, context) => {
      if (context.index >= CSV_COLUMNS_MAX) throw new TooManyColumns(context.lines);
      return value;
    },
  });
  // highWaterMark 1: the source is pulled one slice ahead at most, so stopping stops reading.
  const input = Readable.from(source, { objectMode: true, highWaterMark: 1 });
  input.pipe(parser);
  const records: CsvRecord[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (records.length === maxRecords) {
        throw new CsvLimit("rows", info.lines, `more than ${maxRecords} records`);
      }
      records.push({ record, line: info.lines });
    }
  } catch (e) {
    if (e instanceof CsvLimit) throw e;
    const line = (e as { lines?: number }).lines;
    if (e instanceof TooManyColumns) {
      throw new CsvLimit("columns", line, `has more than ${CSV_COLUMNS_MAX} columns`);
    }
    if (e instanceof CsvError && e.code === "CSV_MAX_RECORD_SIZE") {
      throw new CsvLimit("line", line, `has more than ${CSV_LINE_MAX} characters`);
    }
    throw new CsvLimit("syntax", line, `is not valid CSV: ${(e as Error).message}`);
  } finally {
    input.destroy();
    parser.destroy();
  }
  return records;
}
