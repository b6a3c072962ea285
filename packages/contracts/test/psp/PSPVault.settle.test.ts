import { expect } from "chai";
import { networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import {
  BUDGET,
  CAMPAIGN_A,
  CAMPAIGN_B,
  deployPspWithCampaign,
  expectAccounting,
  expectCampaignA,
  Status,
  UNKNOWN,
  type PspProgram,
} from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/** The settler settles 1 pSP of alice's in CAMPAIGN_A to dave. */
const settleOneToDave = (p: PspProgram) => p.psp.connect(p.settler).settle(p.alice, p.dave, SP(1), CAMPAIGN_A, "");

/** CAMPAIGN_A with 400 pSP issued to alice; alice is on A's settlement allowlist and on Points. */
async function issued() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(400), "");
  await p.psp.connect(p.creator).updateSettlementWhitelist(CAMPAIGN_A, p.alice, true);
  await p.points.addToTransferWhitelist(p.alice);
  return p;
}

describe("PSPVault: settle and expire", () => {
  describe("settle converts pSP to SP for an allowlisted receiver", () => {
    it("settle_sendsSpToAnotherReceiver_andBurnsHoldersPsp", async () => {
      const p = await loadFixture(issued);
      const tx = p.psp.connect(p.settler).settle(p.alice, p.bob, SP(150), CAMPAIGN_A, "order-1");
      await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.alice, p.bob, SP(150), "order-1");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(250));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(150));
      expect(await p.points.balanceOf(p.alice)).to.equal(0n);
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET - SP(150));
      await expectCampaignA(p, { budget: BUDGET, available: SP(600), outstanding: SP(250), status: Status.Active });
      expect(await p.psp.totalAllocated()).to.equal(SP(850));
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("settle_sendsSpToTheHolderItself_whenHolderIsTheReceiver", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.settler).settle(p.alice, p.alice, SP(400), CAMPAIGN_A, ""))
        .to.emit(p.psp, "PSPSettled")
        .withArgs(CAMPAIGN_A, p.alice, p.alice, SP(400), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(0n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(400));
      expect((await p.psp.getCampaign(CAMPAIGN_A)).outstanding).to.equal(0n);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("settle_revertsWhen_receiverIsNotOnTheCampaignsSettlementWhitelist", async () => {
      const p = await loadFixture(issued);
      // dave is on the Points allowlist but not on A's settlement allowlist.
      await p.points.addToTransferWhitelist(p.dave);
      await expect(settleOneToDave(p))
        .to.be.revertedWithCustomError(p.psp, "SettlementReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.dave);
    });

    it("settle_revertsWhen_receiverIsWhitelistedOnAnotherCampaignOnly", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, 0n, [p.dave], [], "");
      await p.points.addToTransferWhitelist(p.dave);
      await expect(settleOneToDave(p))
        .to.be.revertedWithCustomError(p.psp, "SettlementReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.dave);
    });

    it("settle_revertsWhen_receiverIsNotOnPointsTransferAllowlist", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).updateSettlementWhitelist(CAMPAIGN_A, p.dave, true);
      await expect(settleOneToDave(p))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.dave);
    });

    it("settle_revertsWhen_holderHasTooLittlePsp", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.settler).settle(p.alice, p.bob, SP(400) + 1n, CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.alice, SP(400), SP(400) + 1n);
      await expect(p.psp.connect(p.settler).settle(p.bob, p.bob, 1n, CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.bob, 0n, 1n);
    });

    it("settle_revertsWhen_amountIsZero_orCampaignIsUnknown", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.settler).settle(p.alice, p.bob, 0n, CAMPAIGN_A, "")).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAmount",
      );
      await expect(p.psp.connect(p.settler).settle(p.alice, p.bob, 1n, UNKNOWN, ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });

  describe("who may settle and expire: MANAGER_ROLE or SETTLEMENT_ADMIN_ROLE", () => {
    it("settleAndExpire_succeed_forManagerRoleHolder_alone", async () => {
      const p = await loadFixture(issued);
      expect(await p.psp.hasRole(ROLES.SETTLEMENT_ADMIN, p.manager)).to.equal(false);
      await p.psp.connect(p.manager).settle(p.alice, p.bob, SP(10), CAMPAIGN_A, "");
      await p.psp.connect(p.manager).expire(p.alice, SP(10), CAMPAIGN_A, "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(380));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(10));
    });

    it("settleAndExpire_revertWhen_callerHoldsNeitherRole_evenAsCampaignCreator", async () => {
      const p = await loadFixture(issued);
      for (const who of [p.outsider, p.creator, p.issuer, p.mover, p.minter, p.alice]) {
        await expect(p.psp.connect(who).settle(p.alice, p.bob, SP(1), CAMPAIGN_A, ""))
          .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
          .withArgs(who, ROLES.SETTLEMENT_ADMIN);
        await expect(p.psp.connect(who).expire(p.alice, SP(1), CAMPAIGN_A, ""))
          .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
          .withArgs(who, ROLES.SETTLEMENT_ADMIN);
      }
    });
  });

  describe("expire returns SP to the budget; it is issued again without new collateral", () => {
    it("expire_burnsPsp_andReturnsItsSpToAvailable_withoutMovingSp", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.settler).expire(p.alice, SP(100), CAMPAIGN_A, "inactive"))
        .to.emit(p.psp, "PSPExpired")
        .withArgs(CAMPAIGN_A, p.alice, SP(100), "inactive");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(300));
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET);
      await expectCampaignA(p, { budget: BUDGET, available: SP(700), outstanding: SP(300), status: Status.Active });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("expire_thenMint_reissuesTheClawedBackBudget_withNoNewSp", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.bob, SP(600), "");
      expect((await p.psp.getCampaign(CAMPAIGN_A)).available).to.equal(0n);
      const creatorSp = await p.points.balanceOf(p.creator);
      await p.psp.connect(p.settler).expire(p.alice, SP(250), CAMPAIGN_A, "");
      await p.psp.connect(p.creator).mint(CAMPAIGN_A, p.carol, SP(250), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(250));
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET);
      expect(await p.points.balanceOf(p.creator)).to.equal(creatorSp);
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: BUDGET, status: Status.Active });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("expire_revertsWhen_holderHasTooLittlePsp_orAmountIsZero", async () => {
      const p = await loadFixture(issued);
      await expect(p.psp.connect(p.settler).expire(p.alice, SP(401), CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.alice, SP(400), SP(401));
      await expect(p.psp.connect(p.settler).expire(p.alice, 0n, CAMPAIGN_A, "")).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAmount",
      );
      await expect(p.psp.connect(p.settler).expire(p.alice, 1n, UNKNOWN, ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });

  describe("settle and expire work in every status (holders are never trapped)", () => {
    it("settleAndExpire_succeed_onAPausedCampaign_andExpireRefillsAvailable", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await p.psp.connect(p.settler).settle(p.alice, p.bob, SP(100), CAMPAIGN_A, "");
      await p.psp.connect(p.settler).expire(p.alice, SP(100), CAMPAIGN_A, "");
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(100));
      await expectCampaignA(p, { budget: BUDGET, available: SP(700), outstanding: SP(200), status: Status.Paused });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("settle_succeeds_onAClosedCampaign", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await p.psp.connect(p.settler).settle(p.alice, p.bob, SP(400), CAMPAIGN_A, "");
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(400));
      expect(await p.points.balanceOf(p.psp)).to.equal(0n);
      const c = await p.psp.getCampaign(CAMPAIGN_A);
      expect([c.available, c.outstanding, c.status]).to.deep.equal([0n, 0n, Status.Closed]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("expire_onAClosedCampaign_makesTheSpUnallocated_notAvailable", async () => {
      const p = await loadFixture(issued);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      expect(await p.psp.unallocated()).to.equal(0n);
      await p.psp.connect(p.settler).expire(p.alice, SP(150), CAMPAIGN_A, "");
      expect(await p.psp.unallocated()).to.equal(SP(150));
      expect(await p.psp.totalAllocated()).to.equal(SP(250));
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(400));
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: SP(250), status: Status.Closed });
      await expectAccounting(p, [CAMPAIGN_A]);
      // The freed SP funds the next campaign without pulling anything from its creator.
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(150), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_B, p.manager, SP(150), SP(150));
      await expectAccounting(p, [CAMPAIGN_A, CAMPAIGN_B]);
    });
  });
});
