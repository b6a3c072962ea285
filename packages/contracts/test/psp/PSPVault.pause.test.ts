import { expect } from "chai";
import { networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { CAMPAIGN_A, CAMPAIGN_B, deployPspWithCampaign, type PspProgram, Status } from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/** CAMPAIGN_A with 100 pSP issued to alice (settleable to bob, transferable to carol), then paused by `pauser`. */
async function pausedVault() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(100), "");
  await p.psp.connect(p.pauser).pause();
  return p;
}

/** Everything that moves SP or pSP, each called by the admin, who holds every role. */
const blocked: Record<string, (p: PspProgram) => Promise<unknown>> = {
  createCampaign: (p) => p.psp.createCampaign(CAMPAIGN_B, SP(1), [], [], ""),
  fundCampaign: (p) => p.psp.fundCampaign(CAMPAIGN_A, SP(1)),
  mint: (p) => p.psp.mint(CAMPAIGN_A, p.alice, SP(1), ""),
  settle: (p) => p.psp.settle(p.alice, p.bob, SP(1), CAMPAIGN_A, ""),
  expire: (p) => p.psp.expire(p.alice, SP(1), CAMPAIGN_A, ""),
  transfer: (p) => p.psp.transfer(CAMPAIGN_A, p.alice, p.carol, SP(1)),
  // Last, so that replaying the list in order (after unpause) leaves mint possible until here.
  closeCampaign: (p) => p.psp.closeCampaign(CAMPAIGN_A, p.creator),
};

describe("PSPVault: pause", () => {
  describe("who pauses and unpauses", () => {
    it("pause_byPauserRoleHolder_pausesTheVault", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.pauser).pause()).to.emit(p.psp, "Paused").withArgs(p.pauser);
      expect(await p.psp.paused()).to.equal(true);
    });

    it("pause_revertsWhen_callerLacksPauserRole", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      for (const who of [p.outsider, p.manager, p.settler]) {
        await expect(p.psp.connect(who).pause())
          .to.be.revertedWithCustomError(p.psp, "AccessControlUnauthorizedAccount")
          .withArgs(who, ROLES.PAUSER);
      }
    });

    it("unpause_byDefaultAdminOnly_notByPauser", async () => {
      const p = await loadFixture(pausedVault);
      await expect(p.psp.connect(p.pauser).unpause())
        .to.be.revertedWithCustomError(p.psp, "AccessControlUnauthorizedAccount")
        .withArgs(p.pauser, ROLES.DEFAULT_ADMIN);
      await expect(p.psp.connect(p.admin).unpause()).to.emit(p.psp, "Unpaused").withArgs(p.admin);
      expect(await p.psp.paused()).to.equal(false);
    });
  });

  describe("pausing blocks every move of SP or pSP", () => {
    for (const [name, call] of Object.entries(blocked)) {
      it(`${name}_revertsWhen_vaultIsPaused`, async () => {
        const p = await loadFixture(pausedVault);
        await expect(call(p)).to.be.revertedWithCustomError(p.psp, "EnforcedPause");
      });
    }

    it("everyBlockedOperation_succeedsAgain_afterUnpause", async () => {
      const p = await loadFixture(pausedVault);
      await p.psp.connect(p.admin).unpause();
      for (const call of Object.values(blocked)) await call(p);
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(98));
      expect((await p.psp.getCampaign(CAMPAIGN_A)).status).to.equal(Status.Closed);
    });
  });

  describe("configuration still works while paused", () => {
    it("setMinter_andWhitelistUpdates_andSetCampaignAdmin_succeedWhilePaused", async () => {
      const p = await loadFixture(pausedVault);
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(5), true))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, SP(5), true);
      await expect(p.psp.connect(p.creator).updateSettlementWhitelist(CAMPAIGN_A, p.dave, true))
        .to.emit(p.psp, "SettlementWhitelistUpdated")
        .withArgs(CAMPAIGN_A, p.dave, true);
      await expect(p.psp.connect(p.creator).updateTransferWhitelist(CAMPAIGN_A, p.dave, true))
        .to.emit(p.psp, "TransferWhitelistUpdated")
        .withArgs(CAMPAIGN_A, p.dave, true);
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true))
        .to.emit(p.psp, "CampaignAdminUpdated")
        .withArgs(CAMPAIGN_A, p.dave, true);
    });

    it("pauseCampaign_andResumeCampaign_succeedWhilePaused", async () => {
      const p = await loadFixture(pausedVault);
      await expect(p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A))
        .to.emit(p.psp, "CampaignStatusUpdated")
        .withArgs(CAMPAIGN_A, Status.Paused);
      await expect(p.psp.connect(p.creator).resumeCampaign(CAMPAIGN_A))
        .to.emit(p.psp, "CampaignStatusUpdated")
        .withArgs(CAMPAIGN_A, Status.Active);
    });
  });
});
