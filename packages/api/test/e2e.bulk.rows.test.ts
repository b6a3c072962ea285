import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { expectError, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, recipients } from "./helpers/bulk.js";

// Row rules of the bulk routes (docs/rules.md#bulk-requests): every bad row answered at once
// with its row number, field and reason, and nothing built.
describe("bulk routes: CSV and JSON rows", () => {
  let e: E2E;
  const [a, b, c] = recipients(3);
  before(async () => {
    e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000" }));
    await bulkCampaign(e, SP(100));
  });
  after(() => e?.stop());

  const mint = (body: Record<string, unknown>) =>
    e.call("bulkPspMint", { body: { campaignId: CAMPAIGN, from: e.who.brand.address, dryRun: true, ...body } });

  it("csv_everyBadRow_isAnsweredAtOnce_withRowLineFieldAndReason", async () => {
    const r = recipients(12, "rows");
    // One hex letter of a checksummed address in the other case: a typo the checksum catches.
    const at = r[3].slice(2).search(/[a-fA-F]/) + 2;
    const flipped = r[3][at] === r[3][at].toLowerCase() ? r[3][at].toUpperCase() : r[3][at].toLowerCase();
    const typo = r[3].slice(0, at) + flipped + r[3].slice(at + 1);
    const csv = [
      "address,amount,metadata",
      `${r[0]},1.5,ok`, // row 1: fine
      `${r[1].toLowerCase()},2`, // row 2: all lowercase is accepted
      `${r[0].toLowerCase()},1`, // row 3: duplicate of row 1 whatever the case
      `${typo},1`, // row 4
      `${r[4]},0`,
      `${r[5].replace("0x", "0X")},-1`,
      `0x0000000000000000000000000000000000000000,1e3`,
      `"${r[7]}","1,000"`,
      `${r[8]},0.0000000000000000001`,
      `${r[9]},1,meta,extra`,
      `${r[10]},.5`,
      `${r[11]},1 000`,
    ].join("\n");
    const details = expectError(await mint({ recipients: csv, dryRun: false }), 422, "INVALID_ROWS");
    const decimal = 'must be a decimal number of token units such as 12 or 1.5 ("." as decimal point)';
    assert.deepEqual(details, {
      count: 12,
      rows: [
        { row: 3, line: 4, field: "address", reason: "duplicates row 1: an address may appear once" },
        {
          row: 4,
          line: 5,
          field: "address",
          reason: "has a wrong EIP-55 checksum (mixed case): check for a typo, or send it in lowercase",
        },
        { row: 5, line: 6, field: "amount", reason: "must be greater than 0" },
        { row: 6, line: 7, field: "address", reason: "must be 0x followed by 40 hex digits" },
        { row: 6, line: 7, field: "amount", reason: "must not be negative" },
        { row: 7, line: 8, field: "address", reason: "must not be the zero address" },
        { row: 7, line: 8, field: "amount", reason: "must not use an exponent: write the digits" },
        { row: 8, line: 9, field: "amount", reason: "must not have thousands separators" },
        { row: 9, line: 10, field: "amount", reason: "has 19 decimals; the token has 18" },
        { row: 10, line: 11, field: "columns", reason: "has 4 columns; expected address,amount[,metadata]" },
        { row: 11, line: 12, field: "amount", reason: decimal },
        { row: 12, line: 13, field: "amount", reason: "must not have thousands separators" },
      ],
    });
  });

  it("json_rows_useTheSameRules_andNumberRowsFromOne", async () => {
    const details = expectError(
      await mint({
        recipients: [
          { address: a, amount: "1" },
          { address: b, amount: "01" },
        ],
      }),
      422,
      "INVALID_ROWS",
    );
    assert.deepEqual(details.rows, [
      {
        row: 2,
        field: "amount",
        reason: 'must be a decimal number of token units such as 12 or 1.5 ("." as decimal point)',
      },
    ]);
  });

  it("csv_withoutHeader_crlf_andQuotedMetadata_isRead_andDecimalsBecomeSmallestUnits", async () => {
    const csv = `${a},1.5\r\n${b},2,"promo, spring"\r\n\r\n${c},0.000000000000000001\r\n`;
    const plan = expectOk("bulkPspMint", await mint({ recipients: csv, metadata: "drop" }));
    assert.equal(plan.rowCount, 3);
    assert.equal(plan.totalAmount, (SP(3) + SP(1) / 2n + 1n).toString());
    assert.equal(plan.decimals, 18);
    // Rows with another metadata go to their own chunk: one metadata per batch transaction.
    assert.deepEqual(
      plan.chunks.map((ch) => [ch.firstRow, ch.rowCount, ch.metadata]),
      [
        [1, 1, `drop bulk:${plan.bulkId}:1/3`],
        [2, 1, `promo, spring bulk:${plan.bulkId}:2/3`],
        [3, 1, `drop bulk:${plan.bulkId}:3/3`],
      ],
    );
  });

  it("badHeader_unclosedQuote_andTooManyRows_areRefused", async () => {
    const header = expectError(await mint({ recipients: `address,points\n${a},1` }), 422, "INVALID_ROWS");
    assert.deepEqual(header.rows, [
      { row: 0, line: 1, field: "columns", reason: "the header must be address,amount or address,amount,metadata" },
    ]);
    const quote = expectError(await mint({ recipients: `${a},1\n"${b},2` }), 422, "INVALID_ROWS");
    assert.equal(quote.rows[0].field, "csv");
    const many = Array.from({ length: 10_001 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")},1`).join("\n");
    const tooMany = expectError(await mint({ recipients: many }), 400, "INVALID_INPUT");
    assert.equal(tooMany, undefined);
  });

  // Each bound stops the reading (test/bulk.csvStream.test.ts counts it).
  it("hostileCsv_manyLines_manyColumns_longLines_areRefusedAtTheirBound", async () => {
    const lines = expectError(await mint({ recipients: "a\n".repeat(650_000) }), 400, "INVALID_INPUT");
    assert.equal(lines, undefined);
    const columns = expectError(await mint({ recipients: ",".repeat(1_400_000) }), 422, "INVALID_ROWS");
    assert.deepEqual(columns, {
      count: 1,
      rows: [{ row: 0, line: 1, field: "columns", reason: "has more than 16 columns" }],
    });
    const quotes = expectError(await mint({ recipients: `${a},1\n"` + "x".repeat(1_400_000) }), 422, "INVALID_ROWS");
    assert.deepEqual(quotes, {
      count: 1,
      rows: [{ row: 0, line: 2, field: "csv", reason: "has more than 8192 characters" }],
    });
  });

  // The 2 MB body limit itself: test/http.badInput.test.ts ("body over 2 MB") and test/http.bulkLimits.test.ts.
  it("a10000RowCsv_isAccepted_andChunkedUnderTheDefaultCeiling", async () => {
    const rows = recipients(10_000, "tenk").map((r) => `${r},0.25`);
    const plan = expectOk("bulkPspMint", await mint({ recipients: ["address,amount", ...rows].join("\n") }));
    assert.equal(plan.rowCount, 10_000);
    assert.equal(plan.totalAmount, SP(2500).toString());
    assert.equal(
      plan.chunks.reduce((s, ch) => s + ch.rowCount, 0),
      10_000,
    );
    assert.ok(plan.chunks.every((ch) => BigInt(ch.simulatedGas) <= 10_000_000n));
    assert.equal(plan.budget!.shortfall, SP(2400).toString());
  });
});
