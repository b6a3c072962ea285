import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { deployProgram, ethers, networkHelpers, type Program, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { allowMinter, fund } from "./factoryFixture.js";

const fixture = () => deployProgram();
const load = () => networkHelpers.loadFixture(fixture);

/** The four allowlist operations of the Factory (docs/glossary.md#allowlist-the-interfaces-whitelist), each with its view and event. */
const lists = [
  {
    add: "addToMintWhitelist",
    remove: "removeFromMintWhitelist",
    view: "isMintWhitelisted",
    event: "MintWhitelistUpdated",
  },
  {
    add: "addToRedeemWhitelist",
    remove: "removeFromRedeemWhitelist",
    view: "isRedeemWhitelisted",
    event: "RedeemWhitelistUpdated",
  },
] as const;

/** `who` minting SP for `amount` USDC to itself reverts NotMintWhitelisted(who). */
async function expectMintRefused(p: Program, who: HardhatEthersSigner, amount: bigint) {
  await expect(p.factory.connect(who).mint(p.usdc, amount, who))
    .to.be.revertedWithCustomError(p.factory, "NotMintWhitelisted")
    .withArgs(who.address);
}

describe("Factory: mint and redeem allowlists", () => {
  describe("MANAGER_ROLE granted to the brand wallet on the Factory at birth", () => {
    it("managerRole_isHeldByAdminAtBirth_andByNoOtherAccount", async () => {
      const p = await load();
      expect(await p.factory.hasRole(ROLES.MANAGER, p.admin)).to.equal(true);
      for (const who of [p.executor, p.alice, p.outsider, p.feeReceiver]) {
        expect(await p.factory.hasRole(ROLES.MANAGER, who)).to.equal(false);
      }
    });
  });

  for (const l of lists) {
    describe(`${l.add} / ${l.remove} (MANAGER_ROLE on Factory)`, () => {
      it(`${l.add}_listsAccount_andEmits${l.event}`, async () => {
        const p = await load();
        expect(await p.factory[l.view](p.alice)).to.equal(false);
        await expect(p.factory[l.add](p.alice)).to.emit(p.factory, l.event).withArgs(p.alice.address, true);
        expect(await p.factory[l.view](p.alice)).to.equal(true);
        expect(await p.factory[l.view](p.bob)).to.equal(false);
      });

      it(`${l.remove}_unlistsAccount_andEmits${l.event}`, async () => {
        const p = await load();
        await p.factory[l.add](p.alice);
        await expect(p.factory[l.remove](p.alice)).to.emit(p.factory, l.event).withArgs(p.alice.address, false);
        expect(await p.factory[l.view](p.alice)).to.equal(false);
      });

      it(`${l.add}_and_${l.remove}_emitNothing_whenNothingChanges`, async () => {
        const p = await load();
        await expect(p.factory[l.remove](p.alice)).not.to.emit(p.factory, l.event);
        await p.factory[l.add](p.alice);
        await expect(p.factory[l.add](p.alice)).not.to.emit(p.factory, l.event);
        expect(await p.factory[l.view](p.alice)).to.equal(true);
      });

      it(`${l.add}_and_${l.remove}_revertWhen_accountIsZero`, async () => {
        const p = await load();
        await expect(p.factory[l.add](ethers.ZeroAddress)).to.be.revertedWithCustomError(p.factory, "ZeroAddress");
        await expect(p.factory[l.remove](ethers.ZeroAddress)).to.be.revertedWithCustomError(p.factory, "ZeroAddress");
      });

      it(`${l.add}_and_${l.remove}_revertWhen_callerLacksManagerRole`, async () => {
        const p = await load();
        await p.factory[l.add](p.bob);
        // The executor and the users hold no MANAGER_ROLE, whatever else they hold.
        for (const who of [p.executor, p.outsider, p.alice, p.bob]) {
          await expect(p.factory.connect(who)[l.add](p.carol))
            .to.be.revertedWithCustomError(p.factory, "AccessControlUnauthorizedAccount")
            .withArgs(who.address, ROLES.MANAGER);
          await expect(p.factory.connect(who)[l.remove](p.bob))
            .to.be.revertedWithCustomError(p.factory, "AccessControlUnauthorizedAccount")
            .withArgs(who.address, ROLES.MANAGER);
        }
        expect(await p.factory[l.view](p.carol)).to.equal(false);
        expect(await p.factory[l.view](p.bob)).to.equal(true);
      });

      it(`${l.add}_works_forAnyManager_grantedLater`, async () => {
        const p = await load();
        await p.factory.grantRole(ROLES.MANAGER, p.dave);
        await expect(p.factory.connect(p.dave)[l.add](p.alice))
          .to.emit(p.factory, l.event)
          .withArgs(p.alice.address, true);
        await p.factory.revokeRole(ROLES.MANAGER, p.dave);
        await expect(p.factory.connect(p.dave)[l.remove](p.alice))
          .to.be.revertedWithCustomError(p.factory, "AccessControlUnauthorizedAccount")
          .withArgs(p.dave.address, ROLES.MANAGER);
      });
    });
  }

  describe("allowlist membership states", () => {
    // On chain an addition takes effect in the block that includes it; the interface's "time
    // must be budgeted" is about operations, not a contract delay.
    it("mintAllowlist_additionTakesEffect_inTheNextTransaction_andRemovalStopsMinting", async () => {
      const p = await load();
      await fund(p, p.usdc, p.alice, USDC(2));
      await p.points.addToTransferWhitelist(p.alice);
      await expectMintRefused(p, p.alice, USDC(1));
      await p.factory.addToMintWhitelist(p.alice);
      await p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1));
      await p.factory.removeFromMintWhitelist(p.alice);
      await expectMintRefused(p, p.alice, USDC(1));
    });

    it("mintAndRedeemAllowlists_areIndependent", async () => {
      const p = await load();
      await p.factory.addToMintWhitelist(p.alice);
      expect(await p.factory.isRedeemWhitelisted(p.alice)).to.equal(false);
      await p.factory.addToRedeemWhitelist(p.bob);
      expect(await p.factory.isMintWhitelisted(p.bob)).to.equal(false);
    });
  });

  describe("SP minting and pSP issuance are gated independently", () => {
    const campaignId = ethers.id("rule-5");

    async function campaignWithPartner() {
      const p = await load();
      await allowMinter(p, p.admin);
      await fund(p, p.usdc, p.admin, USDC(100));
      await p.factory.mint(p.usdc, USDC(100), p.admin);
      await p.points.approve(p.psp, SP(100));
      await p.psp.createCampaign(campaignId, SP(100), [], [], "rule 5");
      // carol is a delegated minter of the campaign (a partner) and holds no Factory listing.
      await p.psp.setMinter(campaignId, p.carol, SP(10), true);
      await p.points.addToTransferWhitelist(p.carol);
      await fund(p, p.usdc, p.carol, USDC(5));
      return p;
    }

    it("partner_issuesPsp_withoutMintAllowlist_butCannotMintSp", async () => {
      const p = await campaignWithPartner();
      await p.psp.connect(p.carol).mint(campaignId, p.alice, SP(3), "partner issue");
      expect(await p.psp.balanceOf(campaignId, p.alice)).to.equal(SP(3));
      await expectMintRefused(p, p.carol, USDC(5));
    });

    it("partner_mintsSp_onlyOnceOnMintAllowlist_andPspAuthorityIsUnchanged", async () => {
      const p = await campaignWithPartner();
      await p.factory.addToMintWhitelist(p.carol);
      await p.factory.connect(p.carol).mint(p.usdc, USDC(5), p.carol);
      expect(await p.points.balanceOf(p.carol)).to.equal(SP(5));
      await p.psp.setMinter(campaignId, p.carol, SP(10), false);
      await expect(p.psp.connect(p.carol).mint(campaignId, p.alice, SP(1), "revoked"))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(campaignId, p.carol.address);
    });

    it("mintAllowlist_grantsNoPspIssuance", async () => {
      const p = await campaignWithPartner();
      await p.factory.addToMintWhitelist(p.dave);
      await expect(p.psp.connect(p.dave).mint(campaignId, p.alice, SP(1), "not a minter"))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(campaignId, p.dave.address);
    });
  });
});
