import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BULK_ROWS_MAX } from "@points/schema";
import { CSV_CHUNK, CsvLimit, readCsvRecords, slices } from "../src/core/bulk/csvStream.js";

// A 2 MB body of one-character lines was parsed in full, synchronously, before
// the row check. The reader must stop at the first bound crossed without reading the rest:
// counted here by the slices the parser pulled from its source, never by a clock.
const BODY = 1_950_000;

/** The text's slices, counting how many the reader pulled. */
function counted(text: string) {
  const seen = { pulled: 0, total: Math.ceil(text.length / CSV_CHUNK) };
  async function* source() {
    for await (const s of slices(text)) {
      seen.pulled++;
      yield s;
    }
  }
  return { seen, source: source() };
}

const limitOf = async (text: string, max?: number) => {
  const { seen, source } = counted(text);
  const err = await readCsvRecords(source, max).then(
    () => assert.fail("expected a CsvLimit"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof CsvLimit, String(err));
  return { err, seen };
};

describe("bulk CSV: read in slices, stopped at the first bound", () => {
  it("manyLines_stopsAtTheRowLimit_havingPulledOnlyTheFirstSlices", async () => {
    const text = "a\n".repeat(BODY / 2);
    const { err, seen } = await limitOf(text, BULK_ROWS_MAX + 1);
    assert.equal(err.kind, "rows");
    assert.equal(err.message, `more than ${BULK_ROWS_MAX + 1} records`);
    // 10,002 lines of 2 characters end in the second 16 KiB slice; one slice of read-ahead.
    assert.equal(seen.total, 120);
    assert.ok(seen.pulled <= 3, `pulled ${seen.pulled} of ${seen.total} slices`);
  });

  it("manyColumns_stopsAtColumn17_ofTheFirstLine", async () => {
    const { err, seen } = await limitOf(",".repeat(BODY));
    assert.deepEqual([err.kind, err.line, err.message], ["columns", 1, "has more than 16 columns"]);
    assert.ok(seen.pulled <= 2, `pulled ${seen.pulled} of ${seen.total} slices`);
  });

  it("quoteRun_stopsAtTheLineLengthLimit", async () => {
    const { err, seen } = await limitOf('"' + "x".repeat(BODY));
    assert.deepEqual([err.kind, err.line, err.message], ["line", 1, "has more than 8192 characters"]);
    assert.ok(seen.pulled <= 2, `pulled ${seen.pulled} of ${seen.total} slices`);
  });

  it("escapedQuoteRun_stopsAtTheLineLengthLimit", async () => {
    const { err, seen } = await limitOf('"' + '""'.repeat(BODY / 2));
    assert.equal(err.kind, "line");
    assert.ok(seen.pulled <= 2, `pulled ${seen.pulled} of ${seen.total} slices`);
  });

  it("exactlyTheLimit_isReadWhole_withLineNumbers", async () => {
    const lines = Array.from({ length: BULK_ROWS_MAX + 1 }, (_, i) => `r${i},1`);
    const { seen, source } = counted(["address,amount", ...lines.slice(1)].join("\r\n"));
    const records = await readCsvRecords(source, BULK_ROWS_MAX + 1);
    assert.equal(records.length, BULK_ROWS_MAX + 1);
    assert.deepEqual(records[BULK_ROWS_MAX], { record: [`r${BULK_ROWS_MAX}`, "1"], line: BULK_ROWS_MAX + 1 });
    assert.equal(seen.pulled, seen.total);
  });

  it("badQuoting_isASyntaxError_withItsLine", async () => {
    const { err } = await limitOf('a,1\nb,"1\n');
    assert.equal(err.kind, "syntax");
    assert.equal(err.line, 2);
    assert.match(err.message, /^is not valid CSV: /);
  });
});
