import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/money/campaignMoney.ts";
type Ev = { blockNumber: number; logIndex: number; event: string | null; args: Record<string, unknown> };
type State = { budget: string | bigint; available: string | bigint; outstanding: string | bigint };
const { campaignMoney } = (await import(source)) as {
  campaignMoney: (
    state: State,
    events: Ev[],
  ) => Record<
    "budget" | "available" | "outstanding" | "settled" | "returnedAtClose" | "expiredAfterClose" | "unexplained",
    bigint
  >;
};

const SP = (n: string) => parseUnits(n, 18);
let block = 0;
const ev = (event: string, args: Record<string, string>): Ev => ({ blockNumber: ++block, logIndex: 0, event, args });
const parts = (m: ReturnType<typeof campaignMoney>) =>
  m.available + m.outstanding + m.settled + m.returnedAtClose + m.expiredAfterClose;

describe("a campaign's money adds up: budget = available + outstanding + settled + returned at close + expired after close", () => {
  it("anOpenCampaign_settledPspIsCountedFromItsEvents_andExpiryBeforeCloseIsAlreadyInAvailable", () => {
    // Funded 100 + 10; issued 3 + 5; settled 2 (odd wei, to catch rounding); 5 expired back into available.
    const settled = SP("2") + 7n;
    const events = [
      ev("CampaignFunded", { amount: SP("100").toString() }),
      ev("PSPMinted", { amount: SP("3").toString() }),
      ev("PSPSettled", { amount: settled.toString() }),
      ev("CampaignFunded", { amount: SP("10").toString() }),
      ev("PSPMinted", { amount: SP("5").toString() }),
      ev("PSPExpired", { amount: SP("5").toString() }),
    ];
    const state = { budget: SP("110"), available: SP("107"), outstanding: SP("1") - 7n };
    const m = campaignMoney(state, events);
    assert.deepEqual(
      [m.budget, m.available, m.outstanding, m.settled, m.returnedAtClose, m.expiredAfterClose, m.unexplained],
      [SP("110"), SP("107"), SP("1") - 7n, settled, 0n, 0n, 0n],
    );
    assert.equal(parts(m), m.budget, "to the wei");
  });

  it("aClosedCampaign_countsTheFundersAndTheProgramsShare_andPspExpiredAfterClosing", () => {
    const events = [
      ev("CampaignFunded", { amount: SP("100").toString() }),
      ev("PSPMinted", { amount: SP("30").toString() }),
      ev("PSPSettled", { amount: SP("10").toString() }),
      ev("PSPExpired", { amount: SP("4").toString() }), // before closing: back into available
      ev("CampaignClosed", { returned: SP("50").toString() }),
      ev("CampaignProgramShareReleased", { amount: SP("24").toString() }),
      ev("PSPExpired", { amount: SP("6").toString() }), // after closing: leaves the budget
    ];
    const m = campaignMoney({ budget: SP("100"), available: 0n, outstanding: SP("10") }, events.reverse());
    assert.deepEqual(
      [m.settled, m.returnedAtClose, m.expiredAfterClose, m.unexplained],
      [SP("10"), SP("74"), SP("6"), 0n],
      "events arrive newest first from the ledger and are ordered by block and log index",
    );
    assert.equal(parts(m), m.budget);
  });

  it("aLedgerBehindTheContract_leavesTheDifferenceUnexplained_neverHidden", () => {
    // The contract already counts a settlement the ledger has not indexed yet.
    const m = campaignMoney({ budget: SP("100"), available: SP("90"), outstanding: 0n }, [
      ev("CampaignFunded", { amount: SP("100").toString() }),
    ]);
    assert.equal(m.unexplained, SP("10"));
  });

  it("anAmountThatIsNotADecimalInteger_isRefused", () => {
    assert.throws(
      () => campaignMoney({ budget: 1n, available: 0n, outstanding: 0n }, [ev("PSPSettled", { amount: "1e18" })]),
      /not an amount: 1e18/,
    );
  });
});
