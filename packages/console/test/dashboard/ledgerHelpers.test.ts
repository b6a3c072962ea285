import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed paths: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const holdings = "../../src/dashboard/customer/holdings.ts";
const words = "../../src/dashboard/ledger/eventWords.ts";
const { cursorBefore } = (await import(holdings)) as { cursorBefore: (address: string) => string | null };
const { eventLine } = (await import(words)) as {
  eventLine: (
    event: string | null,
    args: Record<string, unknown>,
    token: string | null,
  ) => { words: string; amount: string | null; symbol: string | null; holder: string | null; minter: string | null };
};

describe("a customer's entry of a holder list starts the page at the customer", () => {
  it("theCursorIsTheAddressJustBelow_inLowercaseHex", () => {
    assert.equal(
      cursorBefore("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
      "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bb",
    );
    assert.equal(cursorBefore("0x0000000000000000000000000000000000000100"), `0x${"0".repeat(37)}0ff`);
  });

  it("theZeroAddress_hasNoCursorBelowIt", () => {
    assert.equal(cursorBefore(`0x${"0".repeat(40)}`), null);
  });
});

describe("ledger events read in words with their SP amount", () => {
  it("pspEvents_showTheirAmountInPsp_spTransfersInSp", () => {
    assert.deepEqual(eventLine("PSPMinted", { amount: "30000000000000000000" }, "SP"), {
      words: "pSP issued",
      amount: "30000000000000000000",
      symbol: "pSP",
      holder: null,
      minter: null,
    });
    assert.deepEqual(eventLine("Transfer", { value: "12" }, "SP"), {
      words: "SP transfer",
      amount: "12",
      symbol: "SP",
      holder: null,
      minter: null,
    });
  });

  it("tokenAmounts_showTheProgramsOwnSymbol_orNoneWhileItIsNotKnown", () => {
    assert.deepEqual(eventLine("Transfer", { value: "12" }, "ACME"), {
      words: "SP transfer",
      amount: "12",
      symbol: "ACME",
      holder: null,
      minter: null,
    });
    assert.equal(eventLine("PSPSettled", { amount: "12" }, "ACME").symbol, "pSP");
    assert.equal(eventLine("Minted", { spMinted: "5" }, null).symbol, null);
  });

  it("collateralAmounts_andCreationBudgets_showNoSpAmount", () => {
    assert.equal(eventLine("CollateralPaid", { amount: "5" }, null).amount, null);
    assert.equal(eventLine("CampaignCreated", { spBudget: "100" }, null).amount, null);
    assert.equal(eventLine("CampaignFunded", { amount: "100" }, null).amount, "100");
  });

  it("anUnknownLog_readsAsUnknown_andANonDecimalAmountIsNotShown", () => {
    assert.deepEqual(eventLine(null, {}, "SP"), {
      words: "Unknown event",
      amount: null,
      symbol: "SP",
      holder: null,
      minter: null,
    });
    assert.equal(eventLine("PSPMinted", { amount: "0x10" }, null).amount, null);
  });

  it("holderAndMinter_comeFromTheEventsOwnArguments_anythingElseIsNone", () => {
    const [minter, holder, receiver] = ["0x" + "1".repeat(40), "0x" + "2".repeat(40), "0x" + "3".repeat(40)];
    const minted = eventLine("PSPMinted", { minter, to: holder, amount: "5" }, "ACME");
    assert.deepEqual([minted.holder, minted.minter], [holder, minter]);
    const settled = eventLine("PSPSettled", { holder, receiver, amount: "5" }, "ACME");
    assert.deepEqual([settled.holder, settled.minter], [holder, null]);
    assert.equal(eventLine("PSPExpired", { holder, amount: "5" }, null).holder, holder);
    assert.equal(eventLine("PSPTransferred", { from: holder, to: receiver, amount: "5" }, null).holder, holder);
    assert.equal(eventLine("RedeemRequested", { requester: holder, amount: "5" }, null).holder, holder);
    assert.deepEqual(eventLine("MinterConfigured", { minter, limit: "9" }, null).minter, minter);
    assert.equal(eventLine("PSPMinted", { minter: "not an address", to: 7 }, null).minter, null);
    assert.equal(eventLine("Transfer", { from: holder, to: receiver, value: "1" }, null).holder, null);
  });
});
