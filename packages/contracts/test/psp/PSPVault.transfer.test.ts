import { expect } from "chai";
import { networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { BUDGET, CAMPAIGN_A, CAMPAIGN_B, deployPspWithCampaign, expectAccounting, UNKNOWN } from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/** CAMPAIGN_A (carol on its transfer allowlist) with 400 pSP issued to alice. */
async function issued() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(400), "");
  return p;
}

describe("PSPVault: transfer (admin transfer between users)", () => {
  describe("who may transfer: MANAGER_ROLE or TRANSFER_ADMIN_ROLE", () => {
    it("transfer_movesPspToAWhitelistedHolder_andMovesNoSp", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, SP(150)))
        .to.emit(p.psp, "PSPTransferred")
        .withArgs(CAMPAIGN_A, p.alice, p.carol, SP(150));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(250));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(150));
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET);
      const c = await p.psp.getCampaign(CAMPAIGN_A);
      expect([c.available, c.outstanding]).to.deep.equal([SP(600), SP(400)]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("transfer_succeeds_forManagerRoleHolder_alone", async () => {
      const p = await loadFixture(issued);
      expect(await p.psp.hasRole(ROLES.TRANSFER_ADMIN, p.manager)).to.equal(false);
      await p.psp.connect(p.manager).transfer(CAMPAIGN_A, p.alice, p.carol, SP(400));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(0n);
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(400));
    });

    it("transfer_revertsWhen_callerHoldsNeitherRole_evenAsCampaignCreatorOrHolder", async () => {
      const p = await loadFixture(issued);
      for (const who of [p.outsider, p.creator, p.issuer, p.settler, p.minter, p.alice]) {
        await expect(p.psp.connect(who).transfer(CAMPAIGN_A, p.alice, p.carol, SP(1)))
          .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
          .withArgs(who, ROLES.TRANSFER_ADMIN);
      }
    });
  });

  describe("per-campaign transfer allowlist", () => {
    it("transfer_revertsWhen_receiverIsNotOnTheCampaignsTransferWhitelist", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.bob, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "TransferReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.bob);
    });

    it("transfer_revertsWhen_receiverIsWhitelistedOnAnotherCampaignOnly", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, 0n, [], [p.dave], "");
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.dave, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "TransferReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.dave);
    });

    it("transfer_revertsWhen_receiverWasRemovedFromTheWhitelist", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).updateTransferWhitelist(CAMPAIGN_A, p.carol, false);
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "TransferReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.carol);
    });

    it("transfer_doesNotRequireTheSenderToBeWhitelisted", async () => {
      const p = await loadFixture(issued);
      expect(await p.psp.isTransferWhitelisted(CAMPAIGN_A, p.alice)).to.equal(false);
      await p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, SP(1));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(1));
    });
  });

  describe("amounts and campaign", () => {
    it("transfer_revertsWhen_senderHasTooLittlePsp", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, SP(400) + 1n))
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.alice, SP(400), SP(400) + 1n);
    });

    it("transfer_revertsWhen_amountIsZero_orCampaignIsUnknown", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, 0n)).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAmount",
      );
      await expect(p.psp.connect(p.mover).transfer(UNKNOWN, p.alice, p.carol, 1n))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });

    it("transfer_keepsBalancesOfOtherCampaignsApart", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(50), [], [p.carol], "");
      await p.psp.connect(p.manager).mint(CAMPAIGN_B, p.alice, SP(50), "");
      await p.psp.connect(p.mover).transfer(CAMPAIGN_B, p.alice, p.carol, SP(20));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(400));
      expect(await p.psp.balanceOf(CAMPAIGN_B, p.alice)).to.equal(SP(30));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(0n);
      expect(await p.psp.balanceOf(CAMPAIGN_B, p.carol)).to.equal(SP(20));
      await expectAccounting(p, [CAMPAIGN_A, CAMPAIGN_B]);
    });
  });
});
