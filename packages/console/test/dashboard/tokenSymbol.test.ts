import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/dashboard/tokenSymbol.ts";
const { tokenAmount, registrySymbol, PENDING_SYMBOL } = (await import(path)) as {
  tokenAmount: (value: string | bigint, decimals: number, symbol: string | null) => string;
  registrySymbol: (metadata: Record<string, unknown>) => string | null;
  PENDING_SYMBOL: string;
};

describe("amounts carry the program's own token symbol", () => {
  it("anAmount_showsTheTokensSymbol_notSp", () => {
    assert.equal(tokenAmount("1250500000000000000000", 18, "DEMO"), "1,250.5 DEMO");
    assert.equal(tokenAmount(40n * 10n ** 18n, 18, "ACME"), "40 ACME");
  });

  it("whileTheSymbolIsNotKnown_theAmountShowsWithoutOne", () => {
    assert.equal(tokenAmount("2500000000000000000", 18, null), "2.5");
  });

  it("pendingPoints_keepTheSpecsNamePsp", () => {
    assert.equal(tokenAmount("18000000000000000000", 18, PENDING_SYMBOL), "18 pSP");
  });

  it("theRegistrysMetadata_namesTheSymbol_orNothing", () => {
    assert.equal(registrySymbol({ token: { name: "Demo Points", symbol: "DEMO" } }), "DEMO");
    assert.equal(registrySymbol({ collateralAsset: "0x0" }), null);
    assert.equal(registrySymbol({ token: { symbol: "" } }), null);
    assert.equal(registrySymbol({ token: { symbol: 7 } }), null);
  });
});
