import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import { CAMPAIGN_A, CAMPAIGN_B, deployPspWithCampaign, type PspProgram, UNKNOWN } from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/** CAMPAIGN_A (creator's, dave added as a non-creator admin) and CAMPAIGN_B (manager's). */
async function twoCampaigns() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, 0n, [], [], "B");
  await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true);
  return p;
}

type Signer = PspProgram["alice"];

/**
 * The settlement and transfer allowlists share their rules; `kind` picks the pair
 * update<Kind>Whitelist / is<Kind>Whitelisted and the <Kind>WhitelistUpdated event.
 */
function whitelistBehaviour(kind: "Settlement" | "Transfer") {
  const update = (p: PspProgram, who: Signer, id: string, account: string, allowed: boolean) =>
    p.psp.connect(who)[`update${kind}Whitelist`](id, account, allowed);
  const listed = (p: PspProgram, id: string, account: string) => p.psp[`is${kind}Whitelisted`](id, account);
  const event = `${kind}WhitelistUpdated` as const;

  describe(`update${kind}Whitelist (MANAGER_ROLE or campaign admin)`, () => {
    it(`update${kind}Whitelist_addsAndRemoves_forCreatorAddedAdminAndManager`, async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(update(p, p.creator, CAMPAIGN_A, p.outsider.address, true))
        .to.emit(p.psp, event)
        .withArgs(CAMPAIGN_A, p.outsider, true);
      expect(await listed(p, CAMPAIGN_A, p.outsider.address)).to.equal(true);
      await expect(update(p, p.dave, CAMPAIGN_A, p.outsider.address, false))
        .to.emit(p.psp, event)
        .withArgs(CAMPAIGN_A, p.outsider, false);
      expect(await listed(p, CAMPAIGN_A, p.outsider.address)).to.equal(false);
      await expect(update(p, p.manager, CAMPAIGN_A, p.outsider.address, true))
        .to.emit(p.psp, event)
        .withArgs(CAMPAIGN_A, p.outsider, true);
      expect(await listed(p, CAMPAIGN_A, p.outsider.address)).to.equal(true);
    });

    it(`update${kind}Whitelist_isIdempotent_andEmitsOnlyOnChange`, async () => {
      const p = await loadFixture(twoCampaigns);
      await update(p, p.creator, CAMPAIGN_A, p.outsider.address, true);
      await expect(update(p, p.creator, CAMPAIGN_A, p.outsider.address, true)).not.to.emit(p.psp, event);
      expect(await listed(p, CAMPAIGN_A, p.outsider.address)).to.equal(true);
      await expect(update(p, p.creator, CAMPAIGN_A, p.alice.address, false)).not.to.emit(p.psp, event);
    });

    it(`update${kind}Whitelist_affectsOnlyThatCampaign`, async () => {
      const p = await loadFixture(twoCampaigns);
      await update(p, p.creator, CAMPAIGN_A, p.outsider.address, true);
      expect(await listed(p, CAMPAIGN_B, p.outsider.address)).to.equal(false);
    });

    it(`update${kind}Whitelist_revertsWhen_callerIsNotManagerNorCampaignAdmin`, async () => {
      const p = await loadFixture(twoCampaigns);
      for (const who of [p.outsider, p.issuer, p.settler, p.mover, p.minter]) {
        await expect(update(p, who, CAMPAIGN_A, p.outsider.address, true))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
          .withArgs(CAMPAIGN_A, who);
      }
      // An admin of A is nobody on B, and the CAMPAIGN_ADMIN_ROLE does not change that.
      await expect(update(p, p.creator, CAMPAIGN_B, p.outsider.address, true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_B, p.creator);
    });

    it(`update${kind}Whitelist_revertsWhen_accountIsZero_orCampaignIsUnknown`, async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(update(p, p.creator, CAMPAIGN_A, ethers.ZeroAddress, true)).to.be.revertedWithCustomError(
        p.psp,
        "ZeroAddress",
      );
      await expect(update(p, p.manager, UNKNOWN, p.outsider.address, true))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });
}

describe("PSPVault: campaign allowlists and campaign admins", () => {
  whitelistBehaviour("Settlement");
  whitelistBehaviour("Transfer");

  describe("setCampaignAdmin (MANAGER_ROLE or campaign creator)", () => {
    it("setCampaignAdmin_byCreator_addsAndRemovesAnAdmin", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, true))
        .to.emit(p.psp, "CampaignAdminUpdated")
        .withArgs(CAMPAIGN_A, p.alice, true);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.alice)).to.equal(true);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_B, p.alice)).to.equal(false);
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, false))
        .to.emit(p.psp, "CampaignAdminUpdated")
        .withArgs(CAMPAIGN_A, p.alice, false);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.alice)).to.equal(false);
    });

    it("setCampaignAdmin_byManager_succeeds_onACampaignItDidNotCreate", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.manager).setCampaignAdmin(CAMPAIGN_A, p.alice, true))
        .to.emit(p.psp, "CampaignAdminUpdated")
        .withArgs(CAMPAIGN_A, p.alice, true);
      await p.psp.connect(p.manager).setCampaignAdmin(CAMPAIGN_A, p.dave, false);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.dave)).to.equal(false);
    });

    it("setCampaignAdmin_revertsWhen_callerIsANonCreatorCampaignAdmin", async () => {
      const p = await loadFixture(twoCampaigns);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.dave)).to.equal(true);
      await expect(p.psp.connect(p.dave).setCampaignAdmin(CAMPAIGN_A, p.alice, true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignCreator")
        .withArgs(CAMPAIGN_A, p.dave);
      // Nor may it remove the creator.
      await expect(p.psp.connect(p.dave).setCampaignAdmin(CAMPAIGN_A, p.creator, false))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignCreator")
        .withArgs(CAMPAIGN_A, p.dave);
    });

    it("setCampaignAdmin_revertsWhen_callerIsNeitherManagerNorCreator", async () => {
      const p = await loadFixture(twoCampaigns);
      for (const who of [p.outsider, p.issuer, p.settler, p.mover, p.minter]) {
        await expect(p.psp.connect(who).setCampaignAdmin(CAMPAIGN_A, who, true))
          .to.be.revertedWithCustomError(p.psp, "NotCampaignCreator")
          .withArgs(CAMPAIGN_A, who);
      }
      // Creating campaign A gives no say over campaign B.
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_B, p.creator, true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignCreator")
        .withArgs(CAMPAIGN_B, p.creator);
    });

    it("setCampaignAdmin_removedAdmin_losesCampaignAuthority", async () => {
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, false);
      await expect(p.psp.connect(p.dave).updateSettlementWhitelist(CAMPAIGN_A, p.alice, true))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_A, p.dave);
      await expect(p.psp.connect(p.dave).pauseCampaign(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_A, p.dave);
    });

    it("setCampaignAdmin_creatorWhoRemovedItself_mayStillRestoreItself", async () => {
      // Creatorship is not admin status: it is fixed at creation and cannot be lost.
      const p = await loadFixture(twoCampaigns);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.creator, false);
      await expect(p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A))
        .to.be.revertedWithCustomError(p.psp, "NotCampaignAdmin")
        .withArgs(CAMPAIGN_A, p.creator);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.creator, true);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.creator)).to.equal(true);
      expect((await p.psp.getCampaign(CAMPAIGN_A)).creator).to.equal(p.creator.address);
    });

    it("setCampaignAdmin_isIdempotent_andRejectsZeroAccountAndUnknownCampaign", async () => {
      const p = await loadFixture(twoCampaigns);
      await expect(p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true)).not.to.emit(
        p.psp,
        "CampaignAdminUpdated",
      );
      await expect(
        p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, ethers.ZeroAddress, true),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
      await expect(p.psp.connect(p.manager).setCampaignAdmin(UNKNOWN, p.alice, true))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });
  });
});
