import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/wizard/steps/reviewWords.ts";
const { chainWords, withDetail } = (await import(source)) as {
  chainWords(name: string | undefined, chainId: number | null | undefined): string;
  withDetail(main: string | undefined, detail: string | undefined): string;
};

describe("the deploy review never shows empty parentheses", () => {
  it("chainWords_nameAndId_idAlone_orUnknown", () => {
    assert.equal(chainWords("Hardhat", 31337), "Hardhat (id 31337)");
    assert.equal(chainWords(undefined, 31337), "chain id 31337");
    assert.equal(chainWords(undefined, undefined), "unknown chain");
    assert.equal(chainWords(undefined, null), "unknown chain");
  });

  it("withDetail_bothOrWhatIsKnown_orNotSet", () => {
    assert.equal(withDetail("Acme Points", "ACME"), "Acme Points (ACME)");
    assert.equal(withDetail("Acme Points", undefined), "Acme Points");
    assert.equal(withDetail(undefined, "ACME"), "ACME");
    assert.equal(withDetail(undefined, undefined), "not set");
  });
});
