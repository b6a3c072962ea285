import { describe, it } from "node:test";
import assert from "node:assert/strict";
// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/settings/words.ts";
const { durationWords, feeWords, parseDuration, parseFeePercent, percentText } = (await import(source)) as {
  durationWords(seconds: number): string;
  feeWords(bps: number): string;
  parseDuration(raw: string, unit: string): { seconds?: number; error?: string };
  parseFeePercent(raw: string): { bps?: number; error?: string };
  percentText(bps: number): string;
};

describe("settings in words", () => {
  it("durationWords_keepsEveryPart", () => {
    assert.deepEqual([0, 59, 60, 3600, 5400, 86_400, 90_061, 2_592_000].map(durationWords), [
      "none",
      "59 s",
      "1 min",
      "1 h",
      "1 h 30 min",
      "1 d",
      "1 d 1 h 1 min 1 s",
      "30 d",
    ]);
  });

  it("feeWords_percentAndBps_exactly", () => {
    assert.deepEqual([0, 1, 25, 100, 150, 1000].map(feeWords), [
      "none (0 bps)",
      "0.01% (1 bp)",
      "0.25% (25 bps)",
      "1% (100 bps)",
      "1.5% (150 bps)",
      "10% (1000 bps)",
    ]);
    assert.deepEqual([0, 5, 250].map(percentText), ["0", "0.05", "2.5"]);
  });

  it("parseFeePercent_twoDecimalsAtMost_upTo10Percent", () => {
    assert.deepEqual(parseFeePercent("0.25"), { bps: 25 });
    assert.deepEqual(parseFeePercent(" 10 "), { bps: 1000 });
    assert.deepEqual(parseFeePercent("1.5"), { bps: 150 });
    for (const bad of ["10.01", "0.001", "-1", "1e2", "", "abc"]) assert.ok(parseFeePercent(bad).error, bad);
  });

  it("parseDuration_wholeUnits_upTo30Days", () => {
    assert.deepEqual(parseDuration("2", "hours"), { seconds: 7200 });
    assert.deepEqual(parseDuration("30", "days"), { seconds: 2_592_000 });
    assert.deepEqual(parseDuration("0", "minutes"), { seconds: 0 });
    for (const [raw, unit] of [
      ["31", "days"],
      ["1.5", "hours"],
      ["-1", "hours"],
      ["", "days"],
    ] as const)
      assert.ok(parseDuration(raw, unit).error, raw);
  });
});
