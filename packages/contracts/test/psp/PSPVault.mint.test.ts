import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
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

/** `who` minting `amount` pSP to alice in `campaign` reverts MinterNotAuthorized(campaign, who). */
async function expectMintRefused(p: PspProgram, who: HardhatEthersSigner, campaign: string, amount: bigint) {
  await expect(p.psp.connect(who).mint(campaign, p.alice, amount, ""))
    .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
    .withArgs(campaign, who);
}

/** CAMPAIGN_A (creator) plus CAMPAIGN_B created by the manager with 500 SP. */
async function twoCampaigns() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(500), [], [], "B");
  return p;
}

describe("PSPVault: mint (issue pSP)", () => {
  describe("MANAGER_ROLE: no per-campaign limit, bounded by spBudget", () => {
    it("mint_byManager_issuesPsp_movesBudgetToOutstanding_andMovesNoSp", async () => {
      const p = await loadFixture(twoCampaigns);
      const tx = p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, SP(400), "welcome");
      await expect(tx).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p.manager, p.alice, SP(400), "welcome");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(400));
      expect(await p.psp.balanceOf(CAMPAIGN_B, p.alice)).to.equal(0n);
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET + SP(500));
      expect(await p.points.balanceOf(p.alice)).to.equal(0n);
      await expectCampaignA(p, { budget: BUDGET, available: SP(600), outstanding: SP(400), status: Status.Active });
      await expectAccounting(p, [CAMPAIGN_A, CAMPAIGN_B]);
    });

    it("mint_byManager_mayIssueTheWholeBudget_butNotOneWeiMore", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, BUDGET, "");
      await expect(p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_A, 0n, 1n);
    });

    it("mint_revertsWhen_managerExceedsAvailableBudget", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, SP(900), "");
      await expect(p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, SP(101), ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_A, SP(100), SP(101));
    });
  });

  describe("ISSUING_ADMIN_ROLE: any active campaign, budget-limited", () => {
    it("mint_byIssuingAdmin_issuesIntoEveryActiveCampaign", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.issuer).mint(CAMPAIGN_A, p.alice, SP(10), "a"))
        .to.emit(p.psp, "PSPMinted")
        .withArgs(CAMPAIGN_A, p.issuer, p.alice, SP(10), "a");
      await expect(p.psp.connect(p.issuer).mint(CAMPAIGN_B, p.bob, SP(20), "b"))
        .to.emit(p.psp, "PSPMinted")
        .withArgs(CAMPAIGN_B, p.issuer, p.bob, SP(20), "b");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(10));
      expect(await p.psp.balanceOf(CAMPAIGN_B, p.bob)).to.equal(SP(20));
      expect((await p.psp.getCampaign(CAMPAIGN_B)).available).to.equal(SP(480));
    });

    it("mint_revertsWhen_issuingAdminExceedsAvailableBudget", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.issuer).mint(CAMPAIGN_B, p.alice, SP(500) + 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_B, SP(500), SP(500) + 1n);
    });
  });

  describe("admin of that campaign", () => {
    it("mint_byCampaignCreator_issuesIntoItsOwnCampaign", async () => {
      const p = await loadFixture(twoCampaigns);
      expect(await p.psp.hasRole(ROLES.ISSUING_ADMIN, p.creator)).to.equal(false);
      await expect(p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(5), ""))
        .to.emit(p.psp, "PSPMinted")
        .withArgs(CAMPAIGN_A, p.creator, p.alice, SP(5), "");
    });

    it("mint_byAddedCampaignAdmin_succeeds_untilRemoved", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true);
      await p.psp.connect(p.dave).mint(CAMPAIGN_A, p.alice, SP(5), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(5));
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, false);
      await expectMintRefused(p, p.dave, CAMPAIGN_A, SP(5));
    });

    it("mint_revertsWhen_campaignAdminMintsIntoAnotherCampaign", async () => {
      const p = await loadFixture(twoCampaigns);
      await expectMintRefused(p, p.creator, CAMPAIGN_B, SP(1));
    });

    it("mint_revertsWhen_campaignAdminExceedsAvailableBudget", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, BUDGET + 1n, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_A, BUDGET, BUDGET + 1n);
    });
  });

  describe("active delegated minter of that campaign, bounded by limit; inactive cannot mint", () => {
    it("mint_byActiveMinter_issuesWithinLimit_andCountsIssued", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(60), "partner"))
        .to.emit(p.psp, "PSPMinted")
        .withArgs(CAMPAIGN_A, p.minter, p.alice, SP(60), "partner");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(60));
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(60), true]);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).available).to.equal(SP(940));
    });

    it("mint_revertsWhen_minterWouldPassItsLimit", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(60), "");
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(41), ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(100), SP(60), SP(41));
    });

    it("mint_revertsWhen_minterLimitExceedsBudget_andIssuedIsNotConsumed", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.manager).setMinter(CAMPAIGN_B, p.minter, SP(800), true);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_B, p.alice, SP(501), ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_B, SP(500), SP(501));
      expect(await p.psp.getMinterConfig(CAMPAIGN_B, p.minter)).to.deep.equal([SP(800), 0n, true]);
    });

    it("mint_revertsWhen_minterIsInactive", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), false);
      await expectMintRefused(p, p.minter, CAMPAIGN_A, SP(1));
    });
  });

  describe("delegated minter: no role, no Factory allowlist, own campaign only", () => {
    it("mint_byMinter_needsNoRole_andNoFactoryAllowlist", async () => {
      const p = await loadFixture(twoCampaigns);
      for (const r of Object.values(ROLES)) expect(await p.psp.hasRole(r, p.minter)).to.equal(false);
      expect(await p.factory.isMintWhitelisted(p.minter)).to.equal(false);
      expect(await p.factory.isRedeemWhitelisted(p.minter)).to.equal(false);
      expect(await p.points.isTransferWhitelisted(p.minter)).to.equal(false);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(10), true);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(10), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(10));
    });

    it("mint_revertsWhen_minterOfOneCampaignMintsIntoAnother", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
      await expectMintRefused(p, p.minter, CAMPAIGN_B, SP(1));
    });
  });

  describe("a caller with no minter configuration -> MinterNotAuthorized", () => {
    it("mint_revertsWhen_callerHasNoIssuingAuthorityOnTheCampaign", async () => {
      const p = await loadFixture(twoCampaigns);
      // CAMPAIGN_ADMIN_ROLE creates campaigns; it does not let its holder issue into others'.
      for (const who of [p.outsider, p.settler, p.mover, p.pauser, p.minter, p.executor]) {
        await expectMintRefused(p, who, CAMPAIGN_A, SP(1));
      }
    });
  });

  describe("issuance is not gated by any allowlist", () => {
    it("mint_succeeds_toAHolderOnNoWhitelistAtAll", async () => {
      const p = await loadFixture(twoCampaigns);
      expect(await p.psp.isTransferWhitelisted(CAMPAIGN_A, p.outsider)).to.equal(false);
      expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, p.outsider)).to.equal(false);
      expect(await p.points.isTransferWhitelisted(p.outsider)).to.equal(false);
      await p.psp.connect(p.issuer).mint(CAMPAIGN_A, p.outsider, SP(3), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.outsider)).to.equal(SP(3));
    });
  });

  describe("campaign status and arguments", () => {
    it("mint_revertsWhen_campaignIsPausedOrClosed_evenForManager", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await expect(p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, SP(1), ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotActive")
        .withArgs(CAMPAIGN_A, Status.Paused);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(p.psp.connect(p.issuer).mint(CAMPAIGN_A, p.alice, SP(1), ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotActive")
        .withArgs(CAMPAIGN_A, Status.Closed);
    });

    it("mint_succeedsAgain_afterCampaignIsResumed", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(10), true);
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await expect(p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotActive")
        .withArgs(CAMPAIGN_A, Status.Paused);
      await p.psp.connect(p.creator).resumeCampaign(CAMPAIGN_A);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(1), "");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(1));
    });

    it("mint_revertsWhen_campaignIsUnknown", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.manager).mint(UNKNOWN, p.alice, SP(1), ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });

    it("mint_revertsWhen_recipientIsZeroOrAmountIsZero", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(
        p.psp.connect(p.manager).mint(CAMPAIGN_A, ethers.ZeroAddress, SP(1), ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
      await expect(p.psp.connect(p.manager).mint(CAMPAIGN_A, p.alice, 0n, "")).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAmount",
      );
    });
  });
});
