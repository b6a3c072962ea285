import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed paths: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const amountSrc = "../../../src/components/format/amount.ts";
const textSrc = "../../../src/components/format/text.ts";
const { formatAmount } = (await import(amountSrc)) as { formatAmount: (v: string | bigint, d: number) => string };
const { escapeHidden } = (await import(textSrc)) as { escapeHidden: (t: string) => string };

describe("amounts read like a person's", () => {
  it("groupsThousands_keepsEveryDecimal_dropsTrailingZeros", () => {
    assert.equal(formatAmount(1_250_500_000n, 6), "1,250.5");
    assert.equal(formatAmount("100000000000000000000", 18), "100");
    assert.equal(formatAmount("1", 18), "0.000000000000000001");
    assert.equal(formatAmount("123456789012345678901234567", 18), "123,456,789.012345678901234567");
    assert.equal(formatAmount(0n, 6), "0");
  });
});

describe("text from strangers shows what it holds", () => {
  it("escapesControlBidiAndZeroWidthCharacters", () => {
    assert.equal(escapeHidden("spring"), "spring");
    assert.equal(escapeHidden("evil\u202Egpj.exe"), "evil\\u202egpj.exe");
    assert.equal(escapeHidden("a\u200Bb\u0007c\uFEFF"), "a\\u200bb\\u0007c\\ufeff");
    assert.equal(escapeHidden("<script>"), "<script>", "markup stays text: React escapes it when rendering");
  });
});
