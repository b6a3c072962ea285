import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/dashboard/preflight/paused.ts";
const { pausedBlocker } = (await import(path)) as {
  pausedBlocker: (paused: Record<string, boolean>, needs: string[], doing: string) => { message: string } | null;
};

const bulkPath = "../../src/bulk/operations.ts";
const { bulkNeeds } = (await import(bulkPath)) as {
  bulkNeeds: (operation: string) => string[];
};

// A paused contract refuses with EnforcedPause(); the form says so before anything is built or approved.
describe("a form whose contract is paused stops before anything is built", () => {
  it("aPausedFactory_stopsAMint_namingTheContractAndWhoUnpausesIt", () => {
    assert.deepEqual(pausedBlocker({ factory: true, points: false }, ["factory", "points"], "this mint"), {
      message:
        "The Factory is paused, so this mint would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    });
  });

  it("aPausedPointsToken_stopsARedemptionRequest_whichMovesSp", () => {
    assert.equal(
      pausedBlocker({ factory: false, points: true }, ["factory", "points"], "this request")?.message,
      "The Points token is paused, so this request would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
  });

  it("runningContracts_orAPauseNotNeeded_orNotKnown_blockNothing", () => {
    assert.equal(pausedBlocker({ factory: false, points: false }, ["factory", "points"], "this mint"), null);
    assert.equal(pausedBlocker({ factory: true }, ["pspVault"], "creating this campaign"), null);
    assert.equal(pausedBlocker({}, ["pspVault"], "creating this campaign"), null);
  });

  it("aBulkDrop_stopsWhileTheCampaignVaultIsPaused_aSettlementAlsoWhileThePointsTokenIs", () => {
    const paused = { pspVault: false, points: true };
    assert.equal(pausedBlocker(paused, bulkNeeds("mint"), "this drop"), null);
    assert.equal(pausedBlocker(paused, bulkNeeds("expire"), "this drop"), null);
    assert.equal(
      pausedBlocker(paused, bulkNeeds("settle"), "this drop")?.message,
      "The Points token is paused, so this drop would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    assert.equal(
      pausedBlocker({ pspVault: true }, bulkNeeds("expire"), "this drop")?.message,
      "The Campaign vault is paused, so this drop would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
  });
});
