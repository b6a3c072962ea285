import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/dashboard/campaignActions.ts";
type Off = Partial<Record<"issue" | "settle" | "expire" | "transfer" | "fund" | "close", string>>;
const { unavailableActions } = (await import(path)) as {
  unavailableActions: (
    status: "Active" | "Paused" | "Closed",
    vaultPaused: boolean | null | undefined,
    pointsPaused?: boolean | null,
  ) => Off;
};

// docs/rules.md, Campaigns: the page offers only what the chain would accept.
describe("a campaign page offers only the operations the chain would accept", () => {
  it("anActiveCampaign_inARunningVault_offersEverything", () => {
    assert.deepEqual(unavailableActions("Active", false), {});
    assert.deepEqual(unavailableActions("Active", null), {}, "an unknown pause state blocks nothing");
  });

  it("aPausedCampaign_offersEverythingButIssue", () => {
    assert.deepEqual(Object.keys(unavailableActions("Paused", false)), ["issue"]);
  });

  it("aClosedCampaign_offersSettleExpireAndTransferOnly_soHoldersAreNeverTrapped", () => {
    const off = unavailableActions("Closed", false);
    assert.deepEqual(Object.keys(off).sort(), ["close", "fund", "issue"]);
    assert.equal(off.issue, "The campaign is closed for good: no more pSP can be issued.");
  });

  it("aPausedVault_offersNoPspOperation_andSaysWhoUnpausesIt", () => {
    const off = unavailableActions("Active", true);
    assert.deepEqual(Object.keys(off).sort(), ["close", "expire", "fund", "issue", "settle", "transfer"]);
    for (const why of Object.values(off)) assert.match(why!, /^The Campaign vault is paused: .*PAUSER_ROLE/);
  });

  it("aPausedPointsToken_stopsSettling_whichPaysSp_butNotIssuingExpiringOrMovingPsp", () => {
    assert.deepEqual(unavailableActions("Active", false, true), {
      settle:
        "The Points token is paused: no SP moves, so nothing can be settled until a PAUSER_ROLE holder unpauses it on the Roles page.",
    });
    assert.deepEqual(unavailableActions("Active", false, null), {}, "an unknown pause state blocks nothing");
  });
});
