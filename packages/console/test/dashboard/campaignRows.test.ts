import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/campaignRows.ts";
type Minter = { minter: string; limit: string; issued: string; active: boolean };
type Campaign = {
  campaignId: string;
  budget: string;
  available: string;
  outstanding: string;
  status: string;
  minters: Minter[];
};
type Row = Minter & { campaignId: string };
const { campaignsCsv, minterRows, minterStatus, mintersCsv } = (await import(source)) as {
  campaignsCsv(c: Campaign[], names: Record<string, string>, symbol: string | null): string;
  minterRows(c: Campaign[]): Row[];
  minterStatus(m: Minter): string;
  mintersCsv(rows: Row[], names: Record<string, string>): string;
};

const E18 = 10n ** 18n;
const A = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const B = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const ID1 = `0x${"1".repeat(64)}`;
const ID2 = `0x${"2".repeat(64)}`;
const campaigns: Campaign[] = [
  {
    campaignId: ID1,
    budget: (100n * E18).toString(),
    available: ((605n * E18) / 10n).toString(),
    outstanding: ((2725n * E18) / 100n).toString(),
    status: "Active",
    minters: [
      { minter: A, limit: (10n * E18).toString(), issued: (10n * E18).toString(), active: true },
      { minter: B, limit: (5n * E18).toString(), issued: "0", active: false },
    ],
  },
  { campaignId: ID2, budget: "1", available: "1", outstanding: "0", status: "Closed", minters: [] },
];

describe("campaign and minter lists: rows and CSV in points", () => {
  it("minterStatus_inactive_limitReached_active", () => {
    assert.equal(minterStatus({ minter: A, limit: "10", issued: "10", active: true }), "Limit reached");
    assert.equal(minterStatus({ minter: A, limit: "10", issued: "9", active: true }), "Active");
    assert.equal(minterStatus({ minter: A, limit: "10", issued: "10", active: false }), "Inactive");
  });

  it("campaignsCsv_labelOrEmpty_amountsInPoints_everyDecimal", () => {
    assert.deepEqual(parse(campaignsCsv(campaigns, { [ID1]: "spring" }, "ACME")), [
      ["campaign", "campaignId", "budget (ACME)", "available (ACME)", "outstanding (pSP)", "status"],
      ["spring", ID1, "100", "60.5", "27.25", "Active"],
      ["", ID2, "0.000000000000000001", "0.000000000000000001", "0", "Closed"],
    ]);
  });

  it("mintersCsv_everyMinterOfEveryCampaign_withItsStatusInWords", () => {
    assert.deepEqual(parse(mintersCsv(minterRows(campaigns), { [ID1]: "spring" })), [
      ["campaign", "campaignId", "minter", "limit (pSP)", "issued (pSP)", "status"],
      ["spring", ID1, A, "10", "10", "Limit reached"],
      ["spring", ID1, B, "5", "0", "Inactive"],
    ]);
  });
});
