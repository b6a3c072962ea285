import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import {
  BUDGET,
  CAMPAIGN_A,
  CAMPAIGN_B,
  deployPspWithCampaign,
  expectAccounting,
  sendUnallocated,
  Status,
} from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/**
 * deployPspWithCampaign plus 500 SP somebody sent to the vault (unallocated, the program's) and
 * alice made an admin of CAMPAIGN_A by its creator; alice is on the Points allowlist, so a
 * theft would land.
 */
async function deployWithPool() {
  const p = await deployPspWithCampaign();
  await sendUnallocated(p, SP(500));
  await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, true);
  await p.points.addToTransferWhitelist(p.alice);
  return p;
}

describe("PSPVault: who pays for a campaign and who gets its remainder back", () => {
  describe("attacks on the unallocated pool and on other funders' SP", () => {
    it("createCampaign_revertsWhen_campaignAdminTriesToBudgetFromOthersUnallocatedSp", async () => {
      const p = await loadFixture(deployWithPool);
      await p.points.connect(p.creator).approve(p.psp, 0n);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_B, SP(500), [], [], ""))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientAllowance")
        .withArgs(p.psp, 0n, SP(500));
      expect(await p.psp.unallocated()).to.equal(SP(500));
    });

    it("fundCampaign_revertsWhen_campaignAdminDrawsOthersUnallocatedSp", async () => {
      const p = await loadFixture(deployWithPool);
      // The funder itself pays from its wallet, never from the pool.
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, SP(500)))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.creator, SP(500), 0n);
      expect(await p.points.balanceOf(p.creator)).to.equal(before - SP(500));
      expect(await p.psp.unallocated()).to.equal(SP(500));
      // Another admin cannot fund at all (its SP would become the funder's refund).
      await expect(p.psp.connect(p.alice).fundCampaign(CAMPAIGN_A, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignFunder")
        .withArgs(CAMPAIGN_A, p.alice);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("closeCampaign_revertsWhen_campaignAdminNamesItselfAsReturnTo", async () => {
      const p = await loadFixture(deployWithPool);
      for (const who of [p.alice, p.manager]) {
        await expect(p.psp.connect(who).closeCampaign(CAMPAIGN_A, who))
          .to.be.revertedWithCustomError(p.psp, "InvalidReturnTo")
          .withArgs(CAMPAIGN_A, who, p.creator);
      }
      expect(await p.psp.closeRecipient(CAMPAIGN_A)).to.equal(p.creator.address);
    });

    it("closeCampaign_byAnotherAdmin_paysTheRemainderToTheFunder_notToTheCloser", async () => {
      const p = await loadFixture(deployWithPool);
      const [alice, creator] = [await p.points.balanceOf(p.alice), await p.points.balanceOf(p.creator)];
      await expect(p.psp.connect(p.alice).closeCampaign(CAMPAIGN_A, p.creator))
        .to.emit(p.psp, "CampaignClosed")
        .withArgs(CAMPAIGN_A, p.creator, BUDGET);
      expect(await p.points.balanceOf(p.alice)).to.equal(alice);
      expect(await p.points.balanceOf(p.creator)).to.equal(creator + BUDGET);
      expect(await p.psp.unallocated()).to.equal(SP(500));
    });

    it("closeCampaign_revertsWhen_creatorTriesToPocketManagerTopUpFromThePool", async () => {
      const p = await loadFixture(deployWithPool);
      await p.psp.connect(p.manager).fundCampaign(CAMPAIGN_A, SP(500));
      expect(await p.psp.unallocated()).to.equal(0n);
      const before = await p.points.balanceOf(p.creator);
      const tx = p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      // Only the creator's own 1,000 comes back to it; the pool's 500 goes back to the pool.
      await expect(tx).to.emit(p.psp, "CampaignClosed").withArgs(CAMPAIGN_A, p.creator, BUDGET);
      await expect(tx).to.emit(p.psp, "CampaignProgramShareReleased").withArgs(CAMPAIGN_A, ethers.ZeroAddress, SP(500));
      expect(await p.points.balanceOf(p.creator)).to.equal(before + BUDGET);
      expect(await p.psp.unallocated()).to.equal(SP(500));
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("closeCampaign_givesIssuedBudgetBackToTheProgramFirst_soTheFunderNeverGetsMoreThanItPaid", async () => {
      const p = await loadFixture(deployWithPool);
      await p.psp.connect(p.manager).fundCampaign(CAMPAIGN_A, SP(500));
      await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(1200), "");
      // 300 unissued of 1,500: all of it is the program's 500, none the creator's.
      const before = await p.points.balanceOf(p.creator);
      const tx = p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(tx).to.emit(p.psp, "CampaignClosed").withArgs(CAMPAIGN_A, p.creator, 0n);
      await expect(tx).to.emit(p.psp, "CampaignProgramShareReleased").withArgs(CAMPAIGN_A, ethers.ZeroAddress, SP(300));
      expect(await p.points.balanceOf(p.creator)).to.equal(before);
      expect(await p.psp.unallocated()).to.equal(SP(300));
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("closeCampaign_sendsTheProgramShareToTheTreasury_theManagerSet", async () => {
      const p = await loadFixture(deployWithPool);
      await p.points.addToTransferWhitelist(p.dave);
      await expect(p.psp.connect(p.manager).setTreasury(p.dave)).to.emit(p.psp, "TreasuryUpdated").withArgs(p.dave);
      expect(await p.psp.treasury()).to.equal(p.dave.address);
      await p.psp.connect(p.manager).fundCampaign(CAMPAIGN_A, SP(500));
      await expect(p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator))
        .to.emit(p.psp, "CampaignProgramShareReleased")
        .withArgs(CAMPAIGN_A, p.dave, SP(500));
      expect(await p.points.balanceOf(p.dave)).to.equal(SP(500));
      expect(await p.psp.unallocated()).to.equal(0n);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("setTreasury_revertsWhen_callerIsACampaignAdminWithoutManagerRole", async () => {
      const p = await loadFixture(deployWithPool);
      for (const who of [p.creator, p.alice]) {
        await expect(p.psp.connect(who).setTreasury(who))
          .to.be.revertedWithCustomError(p.psp, "AccessControlUnauthorizedAccount")
          .withArgs(who, ROLES.MANAGER);
      }
    });
  });

  describe("revokeCreator (MANAGER_ROLE)", () => {
    it("revokeCreator_removesCreatorAndAdminRights_soItCanNoLongerReAddItselfOrFund", async () => {
      const p = await loadFixture(deployWithPool);
      const tx = p.psp.connect(p.manager).revokeCreator(CAMPAIGN_A);
      await expect(tx).to.emit(p.psp, "CampaignCreatorRevoked").withArgs(CAMPAIGN_A, p.creator);
      await expect(tx).to.emit(p.psp, "CampaignAdminUpdated").withArgs(CAMPAIGN_A, p.creator, false);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).creator).to.equal(ethers.ZeroAddress);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.creator)).to.equal(false);
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.creator, true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignCreator")
        .withArgs(CAMPAIGN_A, p.creator);
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_A, p.creator);
      // Admins the creator added stay until MANAGER_ROLE removes them.
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.alice)).to.equal(true);
    });

    it("revokeCreator_keepsTheFundersRefund", async () => {
      const p = await loadFixture(deployWithPool);
      await p.psp.connect(p.manager).revokeCreator(CAMPAIGN_A);
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.manager).closeCampaign(CAMPAIGN_A, p.creator))
        .to.emit(p.psp, "CampaignClosed")
        .withArgs(CAMPAIGN_A, p.creator, BUDGET);
      expect(await p.points.balanceOf(p.creator)).to.equal(before + BUDGET);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).status).to.equal(Status.Closed);
    });

    it("revokeCreator_revertsWhen_callerLacksManagerRole_evenForTheCreatorOrAnAdmin", async () => {
      const p = await loadFixture(deployWithPool);
      for (const who of [p.creator, p.alice, p.outsider]) {
        await expect(p.psp.connect(who).revokeCreator(CAMPAIGN_A))
          .to.be.revertedWithCustomError(p.psp, "AccessControlUnauthorizedAccount")
          .withArgs(who, ROLES.MANAGER);
      }
    });

    it("revokeCreator_revertsWith_CreatorAlreadyRevoked_theSecondTime", async () => {
      const p = await loadFixture(deployWithPool);
      await p.psp.connect(p.manager).revokeCreator(CAMPAIGN_A);
      await expect(p.psp.connect(p.manager).revokeCreator(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "CreatorAlreadyRevoked")
        .withArgs(CAMPAIGN_A);
    });
  });
});
