import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const rowsSource = "../../src/dashboard/customer/customerRows.ts";
const csvSource = "../../src/components/csvFile.ts";
type Row = Record<"holder" | "sp" | "psp" | "issued" | "settled" | "clawedBack", string>;
const { customersCsv, readFilter } = (await import(rowsSource)) as {
  customersCsv(rows: Row[], symbol: string | null): string;
  readFilter(prefix: string, min: string): { filter: Record<string, string>; errors: Record<string, string> };
};
const { csvText, plainUnits } = (await import(csvSource)) as {
  csvText(header: string[], rows: string[][]): string;
  plainUnits(value: string | bigint, decimals: number): string;
};

const E18 = 10n ** 18n;

describe("customer list: filter and CSV in points", () => {
  it("readFilter_prefixAndMinimum_inSmallestUnits_orTheSentenceAtTheField", () => {
    assert.deepEqual(readFilter(" 0xAbC ", "12.5"), {
      filter: { prefix: "0xAbC", minBalance: (125n * E18) / 10n + "" },
      errors: {},
    });
    assert.deepEqual(readFilter("abc", ""), { filter: { prefix: "0xabc" }, errors: {} });
    assert.deepEqual(readFilter("", ""), { filter: {}, errors: {} });
    assert.deepEqual(readFilter("0xzz", "1,5"), {
      filter: {},
      errors: {
        prefix: "An address starts with 0x and up to 40 hex digits (0-9, a-f).",
        min: "Type a number of points, like 12 or 12.5.",
      },
    });
    assert.deepEqual(readFilter(`0x${"a".repeat(41)}`, "0.0000000000000000001").errors, {
      prefix: "An address starts with 0x and up to 40 hex digits (0-9, a-f).",
      min: "Type a number of points, like 12 or 12.5.",
    });
  });

  it("plainUnits_everyDecimal_noGrouping_noTrailingZeros", () => {
    assert.equal(plainUnits(0n, 18), "0");
    assert.equal(plainUnits(1234n * E18, 18), "1234");
    assert.equal(plainUnits((1225n * E18) / 100n, 18), "12.25");
    assert.equal(plainUnits(1n, 18), "0.000000000000000001");
    assert.equal(plainUnits("1500000", 6), "1.5");
  });

  it("csvText_quotesAndDefusesFormulas", () => {
    assert.equal(csvText(["a", "b"], [["=1+1", 'say "hi", ok']]), `a,b\r\n'=1+1,"say ""hi"", ok"\r\n`);
  });

  it("customersCsv_amountsInPoints_withTheTokensSymbolInTheHeader", () => {
    const text = customersCsv(
      [
        {
          holder: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
          sp: ((1225n * E18) / 100n).toString(),
          psp: ((1825n * E18) / 100n).toString(),
          issued: ((305n * E18) / 10n).toString(),
          settled: ((1225n * E18) / 100n).toString(),
          clawedBack: "0",
        },
      ],
      "ACME",
    );
    assert.deepEqual(parse(text), [
      ["address", "ACME", "pSP", "issued", "settled", "clawed back"],
      ["0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "12.25", "18.25", "30.5", "12.25", "0"],
    ]);
  });
});
