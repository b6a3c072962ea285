import { expect } from "chai";
import { ethers, networkHelpers, SP } from "../helpers/programFixture.js";
import { CAMPAIGN_A, CAMPAIGN_B, deployPspWithCampaign, MAX_LIMIT, UNKNOWN } from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/** CAMPAIGN_A plus CAMPAIGN_B (manager's), and `minter` active on A with a 100 SP limit. */
async function withMinter() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(500), [], [], "B");
  await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
  return p;
}

describe("PSPVault: delegated minters (setMinter / getMinterConfig)", () => {
  describe("delegated minter configuration states", () => {
    it("setMinter_fromNone_makesMinterActiveWithLimit_onThatCampaignOnly", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([0n, 0n, false]);
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), true);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), 0n, true]);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(1));
    });

    it("setMinter_activeToInactive_keepsLimitAndIssued_andMintingReverts", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(40), "");
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), false))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), false);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(40), false]);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), ""))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(CAMPAIGN_A, p.minter);
    });

    it("setMinter_inactiveToActive_resumesAuthority_withIssuedCarriedOver", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(40), "");
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), false);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(40), true]);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(60), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(100));
      // Pausing did not reset the count: the old limit is now used up.
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), SP(100), 1n);
    });

    it("setMinter_revokeWithZeroAndFalse_fromActiveOrInactive_leavesInactiveWithLimitZero", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(30), "");
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, 0n, false))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, 0n, false);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([0n, SP(30), false]);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(CAMPAIGN_A, p.minter);
      // From inactive, revoking again lands in the same state.
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(5), false);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, 0n, false);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([0n, SP(30), false]);
    });

    it("minterConfigs_areIndependentPerCampaign", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.manager).setMinter(CAMPAIGN_B, p.minter, SP(7), true);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(50), "");
      await p.psp.connect(p.minter).mint(CAMPAIGN_B, p.alice, SP(7), "");
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(50), true]);
      expect(await p.psp.getMinterConfig(CAMPAIGN_B, p.minter)).to.deep.equal([SP(7), SP(7), true]);
      await p.psp.connect(p.manager).setMinter(CAMPAIGN_B, p.minter, 0n, false);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(51));
    });
  });

  describe("issued reaches limit -> mint reverts until setMinter raises it", () => {
    it("mint_revertsOnceLimitIsExhausted_andSucceedsAfterSetMinterRaisesIt", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(70), "");
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.bob, SP(30), "");
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(100), true]);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), SP(100), 1n);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(150), true);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(50), "");
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(150), SP(150), true]);
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(120));
      expect((await p.psp.getCampaign(CAMPAIGN_A)).outstanding).to.equal(SP(150));
    });

    it("mint_reverts_whenLimitIsLoweredBelowIssued", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(40), "");
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(30), true);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(30), SP(40), 1n);
    });

    it("mint_revertsWhen_activeMinterHasLimitZero", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, 0n, true);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, 0n, 0n, 1n);
    });
  });

  describe("limit bounds", () => {
    it("mint_revertsWithMinterLimitExceeded_notAnOverflowPanic_forAHugeAmount", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), "");
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, ethers.MaxUint256, ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), SP(1), ethers.MaxUint256);
    });

    it("setMinter_accepts_limitOf2pow120Minus1", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, MAX_LIMIT, true);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([MAX_LIMIT, 0n, true]);
    });

    it("setMinter_revertsWhen_limitIsAbove2pow120Minus1", async () => {
      const p = await loadFixture(withMinter);
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, MAX_LIMIT + 1n, true))
        .to.be.revertedWithCustomError(p.psp, "LimitTooLarge")
        .withArgs(MAX_LIMIT + 1n, MAX_LIMIT);
    });

    it("setMinter_revertsWhen_minterIsZeroAddress", async () => {
      const p = await loadFixture(withMinter);
      await expect(
        p.psp.connect(p.creator).setMinter(CAMPAIGN_A, ethers.ZeroAddress, SP(1), true),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
    });
  });

  describe("who may configure a minter: MANAGER_ROLE or campaign admin", () => {
    it("setMinter_succeeds_forManagerAndForAnAddedCampaignAdmin", async () => {
      const p = await loadFixture(withMinter);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true);
      await expect(p.psp.connect(p.manager).setMinter(CAMPAIGN_A, p.minter, SP(1), true))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, SP(1), true);
      await expect(p.psp.connect(p.dave).setMinter(CAMPAIGN_A, p.minter, SP(2), true))
        .to.emit(p.psp, "MinterConfigured")
        .withArgs(CAMPAIGN_A, p.minter, SP(2), true);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(2), 0n, true]);
    });

    it("setMinter_revertsWhen_callerIsNotManagerNorCampaignAdmin", async () => {
      const p = await loadFixture(withMinter);
      // The minter itself may not raise its own limit; an ISSUING_ADMIN may issue, not delegate.
      for (const who of [p.minter, p.outsider, p.issuer, p.settler, p.mover]) {
        await expect(p.psp.connect(who).setMinter(CAMPAIGN_A, p.minter, SP(1000), true))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
          .withArgs(CAMPAIGN_A, who);
      }
      await expect(p.psp.connect(p.creator).setMinter(CAMPAIGN_B, p.minter, SP(1), true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_B, p.creator);
    });

    it("setMinter_revertsWhen_campaignIsUnknown", async () => {
      const p = await loadFixture(withMinter);
      await expect(p.psp.connect(p.manager).setMinter(UNKNOWN, p.minter, SP(1), true))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });
});
