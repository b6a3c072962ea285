import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/money/campaignMoney.ts";
type Ev = { blockNumber: number; logIndex: number; event: string | null; args: Record<string, unknown> };
type State = { budget: string | bigint; available: string | bigint; outstanding: string | bigint };
type Money = Record<
  | "budget"
  | "available"
  | "outstanding"
  | "settled"
  | "returnedAtClose"
  | "expiredAfterClose"
  | "unexplained"
  | "issued"
  | "clawedBack"
  | "clawedBackWhileOpen"
  | "unexplainedIssued",
  bigint
>;
type Line = { key: string; label: string; sign: "" | "+" | "−" | "="; value: bigint };
const { campaignMoney, moneyFlow } = (await import(source)) as {
  campaignMoney: (state: State, events: Ev[]) => Money;
  moneyFlow: (m: Money) => { budget: Line[]; issued: Line[] };
};
const amountSrc = "../../src/components/format/amount.ts";
const { formatAmount } = (await import(amountSrc)) as { formatAmount: (v: bigint, d: number) => string };

const SP = (n: string) => parseUnits(n, 18);
let block = 0;
const ev = (event: string, args: Record<string, string>): Ev => ({ blockNumber: ++block, logIndex: 0, event, args });
const parts = (m: ReturnType<typeof campaignMoney>) =>
  m.available + m.outstanding + m.settled + m.returnedAtClose + m.expiredAfterClose;
/** A sum as the page writes it: each line's sign, label and figure in SP. */
const shown = (lines: Line[]) => lines.map((l) => [l.sign, l.label, formatAmount(l.value, 18)]);
/** The start, plus and minus its lines: what the "=" line must show. */
const worked = (lines: Line[]) =>
  lines.slice(1, -1).reduce((t, l) => (l.sign === "+" ? t + l.value : t - l.value), lines[0]!.value);

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

  it("anActiveCampaign_showsIssuedAndClawedBack_andBothSumsAddUpOnScreen", () => {
    // Budget 1,000; issued 900; settled 100; 50 clawed back while active, back into available.
    const events = [
      ev("CampaignFunded", { amount: SP("1000").toString() }),
      ev("PSPMinted", { amount: SP("600").toString() }),
      ev("PSPSettled", { amount: SP("100").toString() }),
      ev("PSPMinted", { amount: SP("300").toString() }),
      ev("PSPExpired", { amount: SP("50").toString() }),
    ];
    const m = campaignMoney({ budget: SP("1000"), available: SP("150"), outstanding: SP("750") }, events);
    assert.deepEqual(
      [m.issued, m.clawedBack, m.clawedBackWhileOpen, m.settled, m.unexplained, m.unexplainedIssued],
      [SP("900"), SP("50"), SP("50"), SP("100"), 0n, 0n],
    );
    const flow = moneyFlow(m);
    assert.deepEqual(shown(flow.budget), [
      ["", "Budget (funded in total)", "1,000"],
      ["−", "Issued as pSP", "900"],
      ["+", "Clawed back while open (back into available)", "50"],
      ["=", "Available to issue", "150"],
    ]);
    assert.deepEqual(shown(flow.issued), [
      ["", "Issued as pSP", "900"],
      ["−", "Settled into SP", "100"],
      ["−", "Clawed back (expired)", "50"],
      ["=", "Outstanding pSP", "750"],
    ]);
    assert.equal(worked(flow.budget), m.available);
    assert.equal(worked(flow.issued), m.outstanding);
  });

  it("aClosedCampaign_sumsShowReturnedAtClose_andOnlyTheClawbackBeforeClosingRefillsAvailable", () => {
    const events = [
      ev("CampaignFunded", { amount: SP("100").toString() }),
      ev("PSPMinted", { amount: SP("30").toString() }),
      ev("PSPSettled", { amount: SP("10").toString() }),
      ev("PSPExpired", { amount: SP("4").toString() }),
      ev("CampaignClosed", { returned: SP("50").toString() }),
      ev("CampaignProgramShareReleased", { amount: SP("24").toString() }),
      ev("PSPExpired", { amount: SP("6").toString() }),
    ];
    const m = campaignMoney({ budget: SP("100"), available: 0n, outstanding: SP("10") }, events);
    const flow = moneyFlow(m);
    assert.deepEqual(shown(flow.budget), [
      ["", "Budget (funded in total)", "100"],
      ["−", "Issued as pSP", "30"],
      ["+", "Clawed back while open (back into available)", "4"],
      ["−", "Returned at close", "74"],
      ["=", "Available to issue", "0"],
    ]);
    assert.deepEqual(shown(flow.issued).at(2), ["−", "Clawed back (expired)", "10"]);
    assert.equal(worked(flow.budget), m.available);
    assert.equal(worked(flow.issued), m.outstanding);
  });

  it("aLedgerMissingAnIssue_addsUpInFiveParts_butNotInIssued_soItIsStillBehind", () => {
    // The contract counts 5 issued (available 95, outstanding 5); the ledger has only the funding.
    const m = campaignMoney({ budget: SP("100"), available: SP("95"), outstanding: SP("5") }, [
      ev("CampaignFunded", { amount: SP("100").toString() }),
    ]);
    assert.deepEqual([m.unexplained, m.unexplainedIssued], [0n, -SP("5")]);
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
