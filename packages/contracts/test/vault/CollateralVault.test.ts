import { expect } from "chai";
import { ADMIN_DELAY, deployProgram, ethers, networkHelpers, SP, USDC } from "../helpers/programFixture.js";

const { loadFixture } = networkHelpers;

/**
 * A program whose Factory proxy address is impersonated (`asFactory`), funded with USDC(100)
 * and DAI(100) and approved on both vaults, so the vaults can be driven exactly as the
 * Factory drives them.
 */
async function vaultFixture() {
  const p = await deployProgram();
  const factoryAddress = await p.factory.getAddress();
  await networkHelpers.impersonateAccount(factoryAddress);
  await networkHelpers.setBalance(factoryAddress, ethers.parseEther("10"));
  const asFactory = await ethers.getSigner(factoryAddress);
  await p.usdc.mint(factoryAddress, USDC(100));
  await p.dai.mint(factoryAddress, SP(100));
  await p.usdc.connect(asFactory).approve(p.vault, ethers.MaxUint256);
  await p.dai.connect(asFactory).approve(p.daiVault, ethers.MaxUint256);
  return { ...p, asFactory };
}

/** As above, with USDC(100) already deposited: the Factory holds 100e6 shares. */
async function deposited() {
  const p = await loadFixture(vaultFixture);
  await p.vault.connect(p.asFactory).deposit(USDC(100), p.asFactory);
  return p;
}

const others = (p: Awaited<ReturnType<typeof vaultFixture>>) => [
  p.admin,
  p.executor,
  p.alice,
  p.outsider,
  p.feeReceiver,
];

describe("CollateralVault: configuration, Factory-only moves, shares and pause", () => {
  describe("configuration (6- and 18-decimal assets)", () => {
    it("assetDecimalsAndFactory_matchInitialization_forA6DecimalAsset", async () => {
      const p = await loadFixture(vaultFixture);
      expect(await p.vault.asset()).to.equal(await p.usdc.getAddress());
      expect(await p.vault.decimals()).to.equal(6n);
      expect(await p.vault.factory()).to.equal(await p.factory.getAddress());
      expect(await p.vault.name()).to.equal("Acme USDC Vault");
      expect(await p.vault.symbol()).to.equal("aUSDC");
    });

    it("assetDecimalsAndFactory_matchInitialization_forAn18DecimalAsset", async () => {
      const p = await loadFixture(vaultFixture);
      expect(await p.daiVault.asset()).to.equal(await p.dai.getAddress());
      expect(await p.daiVault.decimals()).to.equal(18n);
      expect(await p.daiVault.factory()).to.equal(await p.factory.getAddress());
    });

    it("initialize_revertsWith_ZeroAddress_forAZeroAssetOrFactory", async () => {
      const p = await loadFixture(vaultFixture);
      const impl = await ethers.deployContract("CollateralVault");
      const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
      const v = await ethers.getContractAt("CollateralVault", await proxy.getAddress());
      const [usdc, factory] = [await p.usdc.getAddress(), await p.factory.getAddress()];
      const Z = ethers.ZeroAddress;
      await expect(v.initialize(Z, factory, p.admin, ADMIN_DELAY, "V", "V")).to.be.revertedWithCustomError(
        v,
        "ZeroAddress",
      );
      await expect(v.initialize(usdc, Z, p.admin, ADMIN_DELAY, "V", "V")).to.be.revertedWithCustomError(
        v,
        "ZeroAddress",
      );
    });
  });

  describe("only the Factory deposits, mints, withdraws and redeems", () => {
    it("deposit_byFactory_pullsAssets_andMintsShares", async () => {
      const p = await loadFixture(vaultFixture);
      const f = p.asFactory.address;
      await expect(p.vault.connect(p.asFactory).deposit(USDC(100), f))
        .to.emit(p.vault, "Deposit")
        .withArgs(f, f, USDC(100), USDC(100));
      expect(await p.vault.balanceOf(f)).to.equal(USDC(100));
      expect(await p.vault.totalSupply()).to.equal(USDC(100));
      expect(await p.vault.totalAssets()).to.equal(USDC(100));
      expect(await p.usdc.balanceOf(p.vault)).to.equal(USDC(100));
      expect(await p.usdc.balanceOf(f)).to.equal(0n);
    });

    it("deposit_byFactory_intoAn18DecimalVault_isOneToOne", async () => {
      const p = await loadFixture(vaultFixture);
      const f = p.asFactory.address;
      await expect(p.daiVault.connect(p.asFactory).deposit(SP(40), f))
        .to.emit(p.daiVault, "Deposit")
        .withArgs(f, f, SP(40), SP(40));
      expect(await p.daiVault.totalAssets()).to.equal(SP(40));
      expect(await p.dai.balanceOf(f)).to.equal(SP(60));
    });

    it("mint_byFactory_pullsAssets_forExactShares", async () => {
      const p = await loadFixture(vaultFixture);
      const f = p.asFactory.address;
      await expect(p.vault.connect(p.asFactory).mint(USDC(25), f))
        .to.emit(p.vault, "Deposit")
        .withArgs(f, f, USDC(25), USDC(25));
      expect(await p.vault.balanceOf(f)).to.equal(USDC(25));
      expect(await p.usdc.balanceOf(f)).to.equal(USDC(75));
    });

    it("withdraw_byFactory_paysReceiver_andBurnsShares", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      await expect(p.vault.connect(p.asFactory).withdraw(USDC(30), p.alice, f))
        .to.emit(p.vault, "Withdraw")
        .withArgs(f, p.alice.address, f, USDC(30), USDC(30));
      expect(await p.usdc.balanceOf(p.alice)).to.equal(USDC(30));
      expect(await p.vault.balanceOf(f)).to.equal(USDC(70));
      expect(await p.vault.totalAssets()).to.equal(USDC(70));
    });

    it("redeem_byFactory_paysReceiver_forExactShares", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      await expect(p.vault.connect(p.asFactory).redeem(USDC(100), p.bob, f))
        .to.emit(p.vault, "Withdraw")
        .withArgs(f, p.bob.address, f, USDC(100), USDC(100));
      expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(100));
      expect(await p.vault.totalSupply()).to.equal(0n);
      expect(await p.vault.totalAssets()).to.equal(0n);
    });

    it("depositAndMint_revertWith_CallerNotFactory_forEveryOtherAccount", async () => {
      const p = await loadFixture(vaultFixture);
      for (const s of others(p)) {
        await p.usdc.mint(s, USDC(1));
        await p.usdc.connect(s).approve(p.vault, USDC(1));
        for (const receiver of [s.address, p.asFactory.address]) {
          await expect(p.vault.connect(s).deposit(USDC(1), receiver))
            .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
            .withArgs(s.address);
          await expect(p.vault.connect(s).mint(USDC(1), receiver))
            .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
            .withArgs(s.address);
        }
      }
      expect(await p.vault.totalSupply()).to.equal(0n);
    });

    it("withdrawAndRedeem_revertWith_CallerNotFactory_forEveryOtherAccount", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      for (const s of others(p)) {
        await expect(p.vault.connect(s).withdraw(USDC(1), s, f))
          .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
          .withArgs(s.address);
        await expect(p.vault.connect(s).redeem(USDC(1), s, f))
          .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
          .withArgs(s.address);
        // Without shares of their own, the owner-is-caller path is refused the same way.
        await expect(p.vault.connect(s).withdraw(0n, s, s))
          .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
          .withArgs(s.address);
      }
      expect(await p.vault.totalAssets()).to.equal(USDC(100));
    });

    it("withdraw_revertsWith_CallerNotFactory_evenWithAShareAllowanceFromTheFactory", async () => {
      const p = await deposited();
      await p.vault.connect(p.asFactory).approve(p.alice, USDC(100));
      await expect(p.vault.connect(p.alice).withdraw(USDC(1), p.alice, p.asFactory))
        .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
        .withArgs(p.alice.address);
      await expect(p.vault.connect(p.alice).redeem(USDC(1), p.alice, p.asFactory))
        .to.be.revertedWithCustomError(p.vault, "CallerNotFactory")
        .withArgs(p.alice.address);
    });
  });

  describe("shares are non-transferable", () => {
    it("transfer_revertsWith_SharesNonTransferable", async () => {
      const p = await deposited();
      await expect(p.vault.connect(p.asFactory).transfer(p.alice, 1n)).to.be.revertedWithCustomError(
        p.vault,
        "SharesNonTransferable",
      );
    });

    it("transferFrom_revertsWith_SharesNonTransferable", async () => {
      const p = await deposited();
      await p.vault.connect(p.asFactory).approve(p.alice, USDC(1));
      await expect(p.vault.connect(p.alice).transferFrom(p.asFactory, p.alice, 1n)).to.be.revertedWithCustomError(
        p.vault,
        "SharesNonTransferable",
      );
      expect(await p.vault.balanceOf(p.asFactory)).to.equal(USDC(100));
    });
  });

  describe("pause blocks deposits and withdrawals", () => {
    it("everyFundMovement_revertsWith_EnforcedPause_whenPaused", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      await p.vault.connect(p.admin).pause();
      const v = p.vault.connect(p.asFactory);
      await expect(v.deposit(USDC(1), f)).to.be.revertedWithCustomError(v, "EnforcedPause");
      await expect(v.mint(USDC(1), f)).to.be.revertedWithCustomError(v, "EnforcedPause");
      await expect(v.withdraw(USDC(1), f, f)).to.be.revertedWithCustomError(v, "EnforcedPause");
      await expect(v.redeem(USDC(1), f, f)).to.be.revertedWithCustomError(v, "EnforcedPause");
      expect(await p.vault.totalAssets()).to.equal(USDC(100));
    });

    it("maxDepositMintWithdrawRedeem_areZero_whilePaused_andRestoredAfterUnpause", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      const views = async () => [
        await p.vault.maxDeposit(f),
        await p.vault.maxMint(f),
        await p.vault.maxWithdraw(f),
        await p.vault.maxRedeem(f),
      ];
      expect(await views()).to.deep.equal([ethers.MaxUint256, ethers.MaxUint256, USDC(100), USDC(100)]);
      await p.vault.connect(p.admin).pause();
      expect(await views()).to.deep.equal([0n, 0n, 0n, 0n]);
      await p.vault.connect(p.admin).unpause();
      expect(await views()).to.deep.equal([ethers.MaxUint256, ethers.MaxUint256, USDC(100), USDC(100)]);
    });

    it("fundMovement_resumes_afterUnpause", async () => {
      const p = await deposited();
      const f = p.asFactory.address;
      await p.vault.connect(p.admin).pause();
      await p.vault.connect(p.admin).unpause();
      await p.vault.connect(p.asFactory).withdraw(USDC(10), p.alice, f);
      expect(await p.usdc.balanceOf(p.alice)).to.equal(USDC(10));
    });
  });
});
