import { expect } from "chai";
import { networkHelpers, ethers, SP, mintSp, USDC } from "../helpers/programFixture.js";
import {
  BUDGET,
  CAMPAIGN_A,
  CAMPAIGN_B,
  deployPspWithCampaign,
  expectAccounting,
  expectCampaignA,
  sendUnallocated,
  Status,
  UNKNOWN,
} from "./pspFixture.js";

const { loadFixture } = networkHelpers;

describe("PSPVault: campaign funding and lifecycle", () => {
  describe("fundCampaign (MANAGER_ROLE, or the campaign's funder while it is a campaign admin)", () => {
    it("fundCampaign_pullsSp_andGrowsBudgetAndAvailable_forCampaignCreator", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, SP(250)))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.creator, SP(250), 0n);
      expect(await p.points.balanceOf(p.creator)).to.equal(before - SP(250));
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET + SP(250));
      await expectCampaignA(p, {
        budget: BUDGET + SP(250),
        available: BUDGET + SP(250),
        outstanding: 0n,
        status: Status.Active,
      });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("fundCampaign_succeeds_forManagerRoleHolder_whoIsNotACampaignAdmin", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.manager)).to.equal(false);
      await expect(p.psp.connect(p.manager).fundCampaign(CAMPAIGN_A, SP(1)))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.manager, SP(1), 0n);
      expect(await p.psp.fundingOf(CAMPAIGN_A)).to.deep.equal([p.creator.address, SP(1)]);
    });

    it("fundCampaign_revertsWith_NotCampaignFunder_forAnAddedCampaignAdmin_withoutAnyRole", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, true);
      await mintSp(p, p.alice, USDC(10));
      await p.points.connect(p.alice).approve(p.psp, SP(10));
      await expect(p.psp.connect(p.alice).fundCampaign(CAMPAIGN_A, SP(10)))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignFunder")
        .withArgs(CAMPAIGN_A, p.alice);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(10));
    });

    it("fundCampaign_byManager_takesUnallocatedSpFirst_thenPullsTheRest_asProgramMoney", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await sendUnallocated(p, SP(40));
      const before = await p.points.balanceOf(p.manager);
      await expect(p.psp.connect(p.manager).fundCampaign(CAMPAIGN_A, SP(100)))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.manager, SP(100), SP(40));
      expect(await p.points.balanceOf(p.manager)).to.equal(before - SP(60));
      expect(await p.psp.unallocated()).to.equal(0n);
      expect(await p.psp.fundingOf(CAMPAIGN_A)).to.deep.equal([p.creator.address, SP(100)]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("fundCampaign_succeeds_onAPausedCampaign", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, SP(5));
      expect((await p.psp.getCampaign(CAMPAIGN_A)).available).to.equal(BUDGET + SP(5));
    });

    it("fundCampaign_revertsWhen_callerIsNotManagerNorCampaignAdmin", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      // The CAMPAIGN_ADMIN_ROLE lets one create campaigns, not administer somebody else's.
      await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, 0n, [], [], "");
      for (const who of [p.outsider, p.issuer, p.settler, p.mover, p.minter]) {
        await expect(p.psp.connect(who).fundCampaign(CAMPAIGN_A, SP(1)))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
          .withArgs(CAMPAIGN_A, who);
      }
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_B, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_B, p.creator);
    });

    it("fundCampaign_revertsWhen_campaignIsClosed", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "InvalidCampaignStatus")
        .withArgs(CAMPAIGN_A, Status.Closed);
    });

    it("fundCampaign_revertsWhen_amountIsZero", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.creator).fundCampaign(CAMPAIGN_A, 0n)).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAmount",
      );
    });

    it("fundCampaign_revertsWhen_campaignIsUnknown", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.manager).fundCampaign(UNKNOWN, SP(1)))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });

  describe("status: Active <-> Paused, Active/Paused -> Closed (terminal)", () => {
    it("pauseCampaign_thenResumeCampaign_movesActiveToPausedAndBack", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A))
        .to.emit(p.psp, "CampaignStatusUpdated")
        .withArgs(CAMPAIGN_A, Status.Paused);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).status).to.equal(Status.Paused);
      await expect(p.psp.connect(p.creator).resumeCampaign(CAMPAIGN_A))
        .to.emit(p.psp, "CampaignStatusUpdated")
        .withArgs(CAMPAIGN_A, Status.Active);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).status).to.equal(Status.Active);
    });

    it("statusChanges_succeed_forManagerAndForAnAddedCampaignAdmin", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, true);
      await p.psp.connect(p.manager).pauseCampaign(CAMPAIGN_A);
      await p.psp.connect(p.alice).resumeCampaign(CAMPAIGN_A);
      await p.psp.connect(p.alice).pauseCampaign(CAMPAIGN_A);
      await p.psp.connect(p.manager).resumeCampaign(CAMPAIGN_A);
      await p.psp.connect(p.manager).closeCampaign(CAMPAIGN_A, p.creator);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).status).to.equal(Status.Closed);
    });

    it("statusChanges_revertWhen_callerIsNotManagerNorCampaignAdmin", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      for (const who of [p.outsider, p.issuer, p.settler, p.mover]) {
        const psp = p.psp.connect(who);
        await expect(psp.pauseCampaign(CAMPAIGN_A))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
          .withArgs(CAMPAIGN_A, who);
        await expect(psp.closeCampaign(CAMPAIGN_A, who))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
          .withArgs(CAMPAIGN_A, who);
      }
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await expect(p.psp.connect(p.outsider).resumeCampaign(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_A, p.outsider);
    });

    it("statusChanges_revertWhen_transitionIsNotAllowed", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      const psp = p.psp.connect(p.creator);
      await expect(psp.resumeCampaign(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "InvalidCampaignStatus")
        .withArgs(CAMPAIGN_A, Status.Active);
      await psp.pauseCampaign(CAMPAIGN_A);
      await expect(psp.pauseCampaign(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "InvalidCampaignStatus")
        .withArgs(CAMPAIGN_A, Status.Paused);
      await psp.closeCampaign(CAMPAIGN_A, p.creator);
      for (const move of [() => psp.pauseCampaign(CAMPAIGN_A), () => psp.resumeCampaign(CAMPAIGN_A)]) {
        await expect(move())
          .to.be.revertedWithCustomError(p.psp, "InvalidCampaignStatus")
          .withArgs(CAMPAIGN_A, Status.Closed);
      }
      await expect(psp.closeCampaign(CAMPAIGN_A, p.creator))
        .to.be.revertedWithCustomError(p.psp, "InvalidCampaignStatus")
        .withArgs(CAMPAIGN_A, Status.Closed);
    });

    it("statusChanges_revertWhen_campaignIsUnknown", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      for (const move of [
        () => p.psp.pauseCampaign(UNKNOWN),
        () => p.psp.resumeCampaign(UNKNOWN),
        () => p.psp.closeCampaign(UNKNOWN, p.admin),
      ]) {
        await expect(move()).to.be.revertedWithCustomError(p.psp, "CampaignNotFound").withArgs(UNKNOWN);
      }
    });
  });

  describe("closeCampaign returns exactly the unissued budget to its funder", () => {
    it("closeCampaign_sendsUnissuedBudgetToTheFunder_andKeepsOutstandingBacked", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(300), "");
      const before = await p.points.balanceOf(p.creator);
      const tx = p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(tx).to.emit(p.psp, "CampaignStatusUpdated").withArgs(CAMPAIGN_A, Status.Closed);
      await expect(tx).to.emit(p.psp, "CampaignClosed").withArgs(CAMPAIGN_A, p.creator, SP(700));
      await expect(tx).not.to.emit(p.psp, "CampaignProgramShareReleased");
      expect(await p.points.balanceOf(p.creator)).to.equal(before + SP(700));
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(300));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(300));
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: SP(300), status: Status.Closed });
      expect(await p.psp.unallocated()).to.equal(0n);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("closeCampaign_fromPaused_leavesOtherCampaignsAndUnallocatedSpUntouched", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(50), [], [], "B");
      await sendUnallocated(p, SP(7));
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator))
        .to.emit(p.psp, "CampaignClosed")
        .withArgs(CAMPAIGN_A, p.creator, BUDGET);
      expect(await p.points.balanceOf(p.creator)).to.equal(before + BUDGET);
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(57));
      expect(await p.psp.unallocated()).to.equal(SP(7));
      expect((await p.psp.getCampaign(CAMPAIGN_B)).available).to.equal(SP(50));
      await expectAccounting(p, [CAMPAIGN_A, CAMPAIGN_B]);
    });

    it("closeCampaign_withNothingUnissued_closesWithoutMovingSp", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, BUDGET, "");
      // The funder is off the Points allowlist: no transfer may be attempted at all.
      await p.points.removeFromTransferWhitelist(p.creator);
      await expect(p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator))
        .to.emit(p.psp, "CampaignClosed")
        .withArgs(CAMPAIGN_A, p.creator, 0n);
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET);
    });

    it("closeCampaign_revertsWith_InvalidReturnTo_whenReturnToIsZero", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, ethers.ZeroAddress))
        .to.be.revertedWithCustomError(p.psp, "InvalidReturnTo")
        .withArgs(CAMPAIGN_A, ethers.ZeroAddress, p.creator);
    });

    it("closeCampaign_revertsWhen_theFunderIsNotOnPointsTransferAllowlist", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.points.removeFromTransferWhitelist(p.creator);
      await expect(p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.creator);
    });
  });
});
