import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { pointsFixture } from "./pointsFixture.js";

const { loadFixture } = networkHelpers;

/** Alice holds SP(100) and bob SP(10); both listed. Carol and outsider are not listed. */
async function funded() {
  const p = await loadFixture(pointsFixture);
  await p.points.connect(p.minter).mint(p.alice, SP(100));
  await p.points.connect(p.minter).mint(p.bob, SP(10));
  return p;
}

describe("Points: transfer allowlist and transfer restriction", () => {
  describe("the transfer allowlist: membership", () => {
    it("isTransferWhitelisted_listsFactoryAndPspVault_atBirth", async () => {
      const p = await loadFixture(pointsFixture);
      expect(await p.points.isTransferWhitelisted(p.factory)).to.equal(true);
      expect(await p.points.isTransferWhitelisted(p.psp)).to.equal(true);
      expect(await p.points.isTransferWhitelisted(p.carol)).to.equal(false);
      expect(await p.points.isTransferWhitelisted(p.admin)).to.equal(false);
    });

    it("addToTransferWhitelist_byAdmin_listsAccount_andEmits", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).addToTransferWhitelist(p.carol))
        .to.emit(p.points, "TransferWhitelistUpdated")
        .withArgs(p.carol.address, true);
      expect(await p.points.isTransferWhitelisted(p.carol)).to.equal(true);
    });

    it("addToTransferWhitelist_emitsNothing_whenAlreadyListed", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).addToTransferWhitelist(p.alice)).not.to.emit(
        p.points,
        "TransferWhitelistUpdated",
      );
      expect(await p.points.isTransferWhitelisted(p.alice)).to.equal(true);
    });

    it("removeFromTransferWhitelist_byAdmin_unlistsAccount_andEmits", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).removeFromTransferWhitelist(p.alice))
        .to.emit(p.points, "TransferWhitelistUpdated")
        .withArgs(p.alice.address, false);
      expect(await p.points.isTransferWhitelisted(p.alice)).to.equal(false);
    });

    it("removeFromTransferWhitelist_emitsNothing_whenNotListed", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).removeFromTransferWhitelist(p.carol)).not.to.emit(
        p.points,
        "TransferWhitelistUpdated",
      );
      expect(await p.points.isTransferWhitelisted(p.carol)).to.equal(false);
    });

    it("addAndRemove_revertWith_ZeroAddress_forTheZeroAccount", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).addToTransferWhitelist(ethers.ZeroAddress)).to.be.revertedWithCustomError(
        p.points,
        "ZeroAddress",
      );
      await expect(
        p.points.connect(p.admin).removeFromTransferWhitelist(ethers.ZeroAddress),
      ).to.be.revertedWithCustomError(p.points, "ZeroAddress");
    });

    it("addAndRemove_revertWhen_callerIsNotDefaultAdmin", async () => {
      const p = await loadFixture(pointsFixture);
      // Neither the minter nor a pauser manages the list: only DEFAULT_ADMIN_ROLE.
      await p.points.connect(p.admin).grantRole(ROLES.PAUSER, p.bob);
      for (const s of [p.minter, p.bob, p.executor, p.alice, p.carol, p.outsider, p.feeReceiver]) {
        await expect(p.points.connect(s).addToTransferWhitelist(p.carol))
          .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.DEFAULT_ADMIN);
        await expect(p.points.connect(s).removeFromTransferWhitelist(p.alice))
          .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.DEFAULT_ADMIN);
      }
      expect(await p.points.isTransferWhitelisted(p.carol)).to.equal(false);
      expect(await p.points.isTransferWhitelisted(p.alice)).to.equal(true);
    });
  });

  describe("transferRestricted (default true, DEFAULT_ADMIN_ROLE toggles)", () => {
    it("transferRestricted_isTrue_atBirth", async () => {
      const p = await loadFixture(pointsFixture);
      expect(await p.points.transferRestricted()).to.equal(true);
    });

    it("setTransferRestricted_byAdmin_togglesAndEmits_onlyOnChange", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.admin).setTransferRestricted(false))
        .to.emit(p.points, "TransferRestrictionUpdated")
        .withArgs(false);
      expect(await p.points.transferRestricted()).to.equal(false);
      await expect(p.points.connect(p.admin).setTransferRestricted(false)).not.to.emit(
        p.points,
        "TransferRestrictionUpdated",
      );
      await expect(p.points.connect(p.admin).setTransferRestricted(true))
        .to.emit(p.points, "TransferRestrictionUpdated")
        .withArgs(true);
      expect(await p.points.transferRestricted()).to.equal(true);
    });

    it("setTransferRestricted_revertsWhen_callerIsNotDefaultAdmin", async () => {
      const p = await loadFixture(pointsFixture);
      for (const s of [p.minter, p.executor, p.alice, p.outsider]) {
        await expect(p.points.connect(s).setTransferRestricted(false))
          .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.DEFAULT_ADMIN);
      }
      expect(await p.points.transferRestricted()).to.equal(true);
    });
  });

  describe("while restricted, transfers need from and to listed, mints need to listed", () => {
    it("transfer_revertsWhen_receiverNotListed_namingReceiver", async () => {
      const p = await funded();
      await expect(p.points.connect(p.alice).transfer(p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.carol.address);
    });

    it("transfer_revertsWhen_senderNotListed_namingSender", async () => {
      const p = await funded();
      await p.points.connect(p.admin).removeFromTransferWhitelist(p.alice);
      await expect(p.points.connect(p.alice).transfer(p.bob, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.alice.address);
    });

    it("transfer_revertsWhen_neitherListed_namingSenderFirst", async () => {
      const p = await funded();
      await p.points.connect(p.admin).removeFromTransferWhitelist(p.alice);
      await expect(p.points.connect(p.alice).transfer(p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.alice.address);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(100));
    });

    it("transferFrom_revertsWhen_fromOrToNotListed_namingTheFirstUnlisted", async () => {
      const p = await funded();
      await p.points.connect(p.alice).approve(p.bob, SP(50));
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.carol.address);
      await p.points.connect(p.admin).removeFromTransferWhitelist(p.alice);
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.bob, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.alice.address);
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.alice.address);
    });

    it("transferFrom_allowsAnUnlistedSpender_betweenListedParties", async () => {
      // Decision: the list governs who holds and sends SP; the spender is not a party.
      const p = await funded();
      await p.points.connect(p.alice).approve(p.outsider, SP(5));
      await expect(p.points.connect(p.outsider).transferFrom(p.alice, p.bob, SP(5)))
        .to.emit(p.points, "Transfer")
        .withArgs(p.alice.address, p.bob.address, SP(5));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(15));
    });

    it("transfer_succeedsAgain_afterReceiverIsListed", async () => {
      const p = await funded();
      await p.points.connect(p.admin).addToTransferWhitelist(p.carol);
      await p.points.connect(p.alice).transfer(p.carol, SP(1));
      expect(await p.points.balanceOf(p.carol)).to.equal(SP(1));
    });

    it("mint_revertsWhen_receiverNotListed", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.minter).mint(p.carol, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.carol.address);
      expect(await p.points.totalSupply()).to.equal(0n);
    });

    it("mint_ignoresTheMintersOwnListing", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.admin).removeFromTransferWhitelist(p.minter);
      await p.points.connect(p.minter).mint(p.alice, SP(1));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1));
    });

    it("burn_isUnaffectedByTheAllowlist", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.minter, SP(3));
      await p.points.connect(p.admin).removeFromTransferWhitelist(p.minter);
      await expect(p.points.connect(p.minter).burn(SP(3)))
        .to.emit(p.points, "Transfer")
        .withArgs(p.minter.address, ethers.ZeroAddress, SP(3));
      expect(await p.points.totalSupply()).to.equal(0n);
    });
  });

  describe("with the restriction off anyone transfers", () => {
    it("transferAndTransferFrom_betweenUnlistedAccounts_succeed", async () => {
      const p = await funded();
      await p.points.connect(p.admin).setTransferRestricted(false);
      await p.points.connect(p.alice).transfer(p.carol, SP(40));
      await p.points.connect(p.carol).transfer(p.outsider, SP(15));
      await p.points.connect(p.outsider).approve(p.carol, SP(5));
      await p.points.connect(p.carol).transferFrom(p.outsider, p.feeReceiver, SP(5));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(60));
      expect(await p.points.balanceOf(p.carol)).to.equal(SP(25));
      expect(await p.points.balanceOf(p.outsider)).to.equal(SP(10));
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(SP(5));
      expect(await p.points.totalSupply()).to.equal(SP(110));
    });

    it("mint_toAnUnlistedAccount_succeeds", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.admin).setTransferRestricted(false);
      await p.points.connect(p.minter).mint(p.outsider, SP(2));
      expect(await p.points.balanceOf(p.outsider)).to.equal(SP(2));
    });

    it("restrictingAgain_blocksUnlistedHolders", async () => {
      const p = await funded();
      await p.points.connect(p.admin).setTransferRestricted(false);
      await p.points.connect(p.alice).transfer(p.carol, SP(1));
      await p.points.connect(p.admin).setTransferRestricted(true);
      await expect(p.points.connect(p.carol).transfer(p.alice, SP(1)))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.carol.address);
    });
  });
});
