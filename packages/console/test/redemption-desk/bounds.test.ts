import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { DeskView } from "@points/sdk";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/redemption-desk/bounds.ts";
type DeskBounds = DeskView["bounds"];
type DeskBoundsText = { gas: string; minimum: string; paused: string | null; held: Map<string, string> };
const { deskBoundsText } = (await import(path)) as {
  deskBoundsText: (b: DeskBounds, symbol: string | null) => DeskBoundsText;
};

const base: DeskBounds = {
  minAmount: "1000000000000000000",
  gasBudgetPerDay: "50000000",
  gasSpentToday: "0",
  pausedUntil: null,
  reason: null,
  held: [],
};

describe("the redemption desk page says its daily bounds in words", () => {
  it("gas_isSpentOfBudget_withItsShare_groupedByThousands", () => {
    const t = deskBoundsText({ ...base, gasSpentToday: "12500000" }, "SP");
    assert.equal(t.gas, "Gas today: 12,500,000 of 50,000,000 (25%), counted from 00:00 UTC.");
    assert.equal(t.paused, null);
  });

  it("aZeroBudget_saysTheAutomaticDeskSendsNothing", () => {
    assert.equal(
      deskBoundsText({ ...base, gasBudgetPerDay: "0" }, "SP").gas,
      "No gas budget: the automatic desk sends nothing for this program.",
    );
  });

  it("minimum_isInSp_withEveryDecimal", () => {
    assert.equal(
      deskBoundsText({ ...base, minAmount: "1500000000000000001" }, "SP").minimum,
      "Requests under 1.500000000000000001 SP are finalized only when a manager approves them.",
    );
    assert.equal(
      deskBoundsText({ ...base, minAmount: "2500000000000000000" }, "DEMO").minimum,
      "Requests under 2.5 DEMO are finalized only when a manager approves them.",
    );
    assert.equal(
      deskBoundsText({ ...base, minAmount: "2500000000000000000" }, null).minimum,
      "Requests under 2.5 are finalized only when a manager approves them.",
    );
  });

  it("aSpentBudget_saysPausedUntilWhen_andWhy", () => {
    const until = new Date(2026, 10, 28, 0, 0, 0);
    const t = deskBoundsText(
      {
        ...base,
        gasSpentToday: "50100000",
        pausedUntil: until.toISOString(),
        reason: "the day's gas budget of 50000000 is spent",
      },
      "SP",
    );
    const when = `${until.toLocaleDateString(undefined, { day: "numeric", month: "short" })} 00:00`;
    assert.equal(
      t.paused,
      `The desk is paused for this program until ${when}: the day's gas budget of 50000000 is spent`,
    );
    assert.equal(t.gas, "Gas today: 50,100,000 of 50,000,000 (100%), counted from 00:00 UTC.");
  });

  it("aHeldRequest_saysWhenItIsTriedAgain_andWhy_byItsId", () => {
    const until = new Date(2026, 10, 27, 9, 30, 0);
    const t = deskBoundsText(
      {
        ...base,
        held: [{ requestId: "7", until: until.toISOString(), reason: "simulation reverted: RequestNotReady" }],
      },
      "SP",
    );
    const when = `${until.toLocaleDateString(undefined, { day: "numeric", month: "short" })} 09:30`;
    assert.equal(t.held.get("7"), `held until ${when}: simulation reverted: RequestNotReady`);
    assert.equal(t.held.get("8"), undefined);
  });
});
