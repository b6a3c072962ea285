import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/charts/series.ts";
type Ev = {
  blockNumber: number;
  logIndex: number;
  time: string;
  contract: string;
  event: string | null;
  args: Record<string, unknown>;
};
type Steps = { t: number[]; v: bigint[] };
const s = (await import(source)) as {
  spSupply(e: Ev[]): Steps;
  collateral(e: Ev[], asset: string): Steps;
  burnDown(e: Ev[]): Steps;
  pspOutcome(e: Ev[]): { outstanding: bigint; settled: bigint; expired: bigint };
  issuancePerDay(e: Ev[]): { days: number[]; minters: string[]; amounts: bigint[][] };
  redemptionQueue(r: { status: string; amount: string }[]): { status: string; count: number; amount: bigint }[];
};

const SP = (n: string) => parseUnits(n, 18);
const ZERO = "0x0000000000000000000000000000000000000000";
const [A, B, USDC] = ["0x" + "a".repeat(40), "0x" + "b".repeat(40), "0x" + "c".repeat(40)];
let block = 0;
const at = (time: string, contract: string, event: string, args: Record<string, string>): Ev => ({
  blockNumber: ++block,
  logIndex: 0,
  time,
  contract,
  event,
  args,
});
const T1 = "2026-11-23T10:00:00.000Z";
const T2 = "2026-11-24T09:00:00.000Z";
const secs = (t: string) => Date.parse(t) / 1000;

describe("the dashboard's pictures are computed from ledger events", () => {
  it("spSupply_addsMintsFromZero_andSubtractsBurnsToZero_ignoringTransfersBetweenHolders", () => {
    const events = [
      at(T1, "points", "Transfer", { from: ZERO, to: A, value: SP("100").toString() }),
      at(T1, "points", "Transfer", { from: A, to: B, value: SP("30").toString() }),
      at(T2, "points", "Transfer", { from: B, to: ZERO, value: SP("10").toString() }),
    ];
    assert.deepEqual(s.spSupply(events.reverse()), { t: [secs(T1), secs(T2)], v: [SP("100"), SP("90")] });
  });

  it("collateral_countsMintedDeposits_andPaidOutRedemptions_ofThatAssetOnly", () => {
    const events = [
      at(T1, "factory", "Minted", { asset: USDC, assetAmount: "1000000000" }),
      at(T1, "factory", "Minted", { asset: A, assetAmount: "5" }),
      at(T2, "factory", "CollateralPaid", { asset: USDC, amount: "250000000" }),
    ];
    assert.deepEqual(s.collateral(events, USDC.toUpperCase().replace("0X", "0x")).v, [1_000_000_000n, 750_000_000n]);
  });

  it("burnDown_followsAvailable_expiryRefillsItBeforeClose_andClosingEmptiesIt", () => {
    const events = [
      at(T1, "pspVault", "CampaignFunded", { amount: SP("500").toString() }),
      at(T1, "pspVault", "PSPMinted", { minter: A, amount: SP("40").toString() }),
      at(T2, "pspVault", "PSPExpired", { amount: SP("5").toString() }),
      at(T2, "pspVault", "CampaignFunded", { amount: SP("10").toString() }),
      at(T2, "pspVault", "CampaignClosed", { returned: SP("475").toString() }),
      at(T2, "pspVault", "PSPExpired", { amount: SP("1").toString() }),
    ];
    // One point per block time: the value after that time's events.
    assert.deepEqual(s.burnDown(events).v, [SP("460"), 0n]);
    assert.deepEqual(s.burnDown(events.slice(0, 4)).v, [SP("460"), SP("475")]);
  });

  it("pspOutcome_splitsIssuedIntoOutstandingSettledAndExpired", () => {
    const events = [
      at(T1, "pspVault", "PSPMinted", { minter: A, amount: SP("40").toString() }),
      at(T1, "pspVault", "PSPSettled", { amount: SP("30").toString() }),
      at(T2, "pspVault", "PSPExpired", { amount: SP("4").toString() }),
    ];
    assert.deepEqual(s.pspOutcome(events), { outstanding: SP("6"), settled: SP("30"), expired: SP("4") });
  });

  it("issuancePerDay_groupsByUtcDayAndMinter", () => {
    const events = [
      at(T1, "pspVault", "PSPMinted", { minter: A, amount: SP("1").toString() }),
      at(T1, "pspVault", "PSPMinted", { minter: A, amount: SP("2").toString() }),
      at(T2, "pspVault", "PSPMinted", { minter: B, amount: SP("5").toString() }),
      at(T2, "pspVault", "PSPSettled", { amount: SP("5").toString() }),
    ];
    assert.deepEqual(s.issuancePerDay(events), {
      days: [Date.parse("2026-11-23T00:00:00Z") / 1000, Date.parse("2026-11-24T00:00:00Z") / 1000],
      minters: [A, B],
      amounts: [
        [SP("3"), 0n],
        [0n, SP("5")],
      ],
    });
  });

  it("redemptionQueue_sumsRequestsAndSpPerStatus", () => {
    const q = s.redemptionQueue([
      { status: "pending", amount: SP("1").toString() },
      { status: "pending", amount: SP("2").toString() },
      { status: "rejected", amount: SP("4").toString() },
    ]);
    assert.deepEqual(
      q.map((r) => [r.status, r.count, r.amount]),
      [
        ["pending", 2, SP("3")],
        ["ready", 0, 0n],
        ["finalized", 0, 0n],
        ["cancelled", 0, 0n],
        ["rejected", 1, SP("4")],
      ],
    );
  });
});
