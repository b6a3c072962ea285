import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { pointsFixture } from "./pointsFixture.js";

const { loadFixture } = networkHelpers;
const MAX_SUPPLY = 2n ** 248n - 1n;

describe("Points: metadata, mint, burn and balances", () => {
  describe("metadata", () => {
    it("erc20Metadata_matchesInitialization", async () => {
      const p = await loadFixture(pointsFixture);
      expect(await p.points.name()).to.equal("Acme Points");
      expect(await p.points.symbol()).to.equal("ACME");
      expect(await p.points.decimals()).to.equal(18n);
      expect(await p.points.totalSupply()).to.equal(0n);
    });

    it("minterRole_isHeldByTheFactory_atBirth", async () => {
      const p = await loadFixture(pointsFixture);
      expect(await p.points.MINTER_ROLE()).to.equal(ROLES.MINTER);
      expect(await p.points.hasRole(ROLES.MINTER, p.factory)).to.equal(true);
      // The brand's wallet administers Points but does not mint.
      expect(await p.points.hasRole(ROLES.MINTER, p.admin)).to.equal(false);
    });
  });

  describe("mint by MINTER_ROLE only", () => {
    it("mint_byMinter_creditsReceiver_andEmitsTransfer", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.minter).mint(p.alice, SP(100)))
        .to.emit(p.points, "Transfer")
        .withArgs(ethers.ZeroAddress, p.alice.address, SP(100));
      await p.points.connect(p.minter).mint(p.bob, SP(50));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(100));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(50));
      expect(await p.points.totalSupply()).to.equal(SP(150));
    });

    it("mint_byTheFactoryProxy_succeeds", async () => {
      const p = await loadFixture(pointsFixture);
      const factory = await p.factory.getAddress();
      await networkHelpers.impersonateAccount(factory);
      await networkHelpers.setBalance(factory, ethers.parseEther("1"));
      const asFactory = await ethers.getSigner(factory);
      await expect(p.points.connect(asFactory).mint(p.alice, 7n))
        .to.emit(p.points, "Transfer")
        .withArgs(ethers.ZeroAddress, p.alice.address, 7n);
      expect(await p.points.balanceOf(p.alice)).to.equal(7n);
      await networkHelpers.stopImpersonatingAccount(factory);
    });

    it("mint_revertsWhen_callerLacksMinterRole", async () => {
      const p = await loadFixture(pointsFixture);
      for (const s of [p.admin, p.executor, p.alice, p.bob, p.carol, p.outsider, p.feeReceiver]) {
        await expect(p.points.connect(s).mint(p.alice, SP(1)))
          .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.MINTER);
      }
      expect(await p.points.totalSupply()).to.equal(0n);
    });

    it("mint_revertsWhen_minterRoleWasRevoked", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.admin).revokeRole(ROLES.MINTER, p.minter);
      await expect(p.points.connect(p.minter).mint(p.alice, SP(1)))
        .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
        .withArgs(p.minter.address, ROLES.MINTER);
    });

    it("mint_revertsWhen_receiverIsZero", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.minter).mint(ethers.ZeroAddress, SP(1)))
        .to.be.revertedWithCustomError(p.points, "ERC20InvalidReceiver")
        .withArgs(ethers.ZeroAddress);
    });
  });

  describe("burn by MINTER_ROLE only, of its own balance", () => {
    it("burn_byMinter_burnsOwnBalance_andEmitsTransfer", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.minter, SP(100));
      await p.points.connect(p.minter).mint(p.alice, SP(5));
      await expect(p.points.connect(p.minter).burn(SP(40)))
        .to.emit(p.points, "Transfer")
        .withArgs(p.minter.address, ethers.ZeroAddress, SP(40));
      expect(await p.points.balanceOf(p.minter)).to.equal(SP(60));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(5));
      expect(await p.points.totalSupply()).to.equal(SP(65));
    });

    it("burn_revertsWhen_callerLacksMinterRole", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.alice, SP(10));
      for (const s of [p.admin, p.executor, p.alice, p.bob, p.carol, p.outsider, p.feeReceiver]) {
        await expect(p.points.connect(s).burn(SP(1)))
          .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.MINTER);
      }
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(10));
      expect(await p.points.totalSupply()).to.equal(SP(10));
    });

    it("burn_revertsWhen_amountExceedsOwnBalance", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.minter, SP(100));
      await expect(p.points.connect(p.minter).burn(SP(100) + 1n))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientBalance")
        .withArgs(p.minter.address, SP(100), SP(100) + 1n);
    });

    it("burn_neverTouchesOtherHoldersBalances", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.alice, SP(10));
      await expect(p.points.connect(p.minter).burn(1n))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientBalance")
        .withArgs(p.minter.address, 0n, 1n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(10));
    });
  });

  describe("supply cap (balances are packed in 248 bits)", () => {
    it("mint_upToTheCap_succeeds", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.alice, MAX_SUPPLY);
      expect(await p.points.totalSupply()).to.equal(MAX_SUPPLY);
      expect(await p.points.balanceOf(p.alice)).to.equal(MAX_SUPPLY);
    });

    it("mint_revertsWith_SupplyCapExceeded_aboveTheCap", async () => {
      const p = await loadFixture(pointsFixture);
      await expect(p.points.connect(p.minter).mint(p.alice, MAX_SUPPLY + 1n))
        .to.be.revertedWithCustomError(p.points, "SupplyCapExceeded")
        .withArgs(MAX_SUPPLY + 1n, MAX_SUPPLY);
      await p.points.connect(p.minter).mint(p.alice, MAX_SUPPLY - 5n);
      await expect(p.points.connect(p.minter).mint(p.bob, 6n))
        .to.be.revertedWithCustomError(p.points, "SupplyCapExceeded")
        .withArgs(MAX_SUPPLY + 1n, MAX_SUPPLY);
      await p.points.connect(p.minter).mint(p.bob, 5n);
      expect(await p.points.totalSupply()).to.equal(MAX_SUPPLY);
    });

    it("transfer_ofTheWholeCap_keepsTheAllowlistBitIntact", async () => {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.alice, MAX_SUPPLY);
      await p.points.connect(p.alice).transfer(p.bob, MAX_SUPPLY);
      expect(await p.points.balanceOf(p.bob)).to.equal(MAX_SUPPLY);
      expect(await p.points.balanceOf(p.alice)).to.equal(0n);
      expect(await p.points.isTransferWhitelisted(p.alice)).to.equal(true);
      expect(await p.points.isTransferWhitelisted(p.bob)).to.equal(true);
    });
  });

  describe("transfer and transferFrom balances", () => {
    async function funded() {
      const p = await loadFixture(pointsFixture);
      await p.points.connect(p.minter).mint(p.alice, SP(100));
      return p;
    }

    it("transfer_movesExactAmount_andKeepsTotalSupply", async () => {
      const p = await funded();
      await expect(p.points.connect(p.alice).transfer(p.bob, SP(30)))
        .to.emit(p.points, "Transfer")
        .withArgs(p.alice.address, p.bob.address, SP(30));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(70));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(30));
      expect(await p.points.totalSupply()).to.equal(SP(100));
    });

    it("transfer_revertsWith_ERC20InsufficientBalance", async () => {
      const p = await funded();
      await expect(p.points.connect(p.alice).transfer(p.bob, SP(100) + 1n))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientBalance")
        .withArgs(p.alice.address, SP(100), SP(100) + 1n);
    });

    it("transferFrom_spendsAllowance_andMovesExactAmount", async () => {
      const p = await funded();
      await p.points.connect(p.alice).approve(p.bob, SP(50));
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.bob, SP(20)))
        .to.emit(p.points, "Transfer")
        .withArgs(p.alice.address, p.bob.address, SP(20));
      expect(await p.points.allowance(p.alice, p.bob)).to.equal(SP(30));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(80));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(20));
    });

    it("transferFrom_revertsWith_ERC20InsufficientBalance", async () => {
      const p = await funded();
      await p.points.connect(p.alice).approve(p.bob, SP(500));
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.bob, SP(101)))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientBalance")
        .withArgs(p.alice.address, SP(100), SP(101));
    });

    it("transferFrom_revertsWith_ERC20InsufficientAllowance", async () => {
      const p = await funded();
      await p.points.connect(p.alice).approve(p.bob, SP(10));
      await expect(p.points.connect(p.bob).transferFrom(p.alice, p.bob, SP(11)))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientAllowance")
        .withArgs(p.bob.address, SP(10), SP(11));
    });
  });
});
