import { expect } from "chai";
import type { FeeOnTransferToken } from "../../types/ethers-contracts/index.js";
import { deployProgram, ethers, networkHelpers, type Program, SP, USDC } from "../helpers/programFixture.js";
import { DAI, deployToken, deployVault, expectBacked, feedPrice, aliceReadyToMint } from "./factoryFixture.js";

const plain = () => deployProgram();
const withOracle = () => deployProgram({ withOracle: true });

/** alice may mint and hold SP, bob may hold SP; both hold USDC and DAI approved to the Factory. */
async function ready(fixture: () => Promise<Program>) {
  const p = await networkHelpers.loadFixture(fixture);
  await aliceReadyToMint(p);
  await p.points.addToTransferWhitelist(p.bob);
  return p;
}

describe("Factory: mint", () => {
  describe("SP = amount normalised to 18 decimals x price, collateral into the asset's vault", () => {
    it("mint_6DecimalAsset_mintsAmountTimes1e12_andDepositsIntoItsVault", async () => {
      const p = await ready(plain);
      const amount = 1_234_567_891n; // 1,234.567891 USDC
      const sp = amount * 10n ** 12n;
      expect(await p.factory.connect(p.alice).mint.staticCall(p.usdc, amount, p.bob)).to.equal(sp);
      await expect(p.factory.connect(p.alice).mint(p.usdc, amount, p.bob))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.usdc.getAddress(), p.bob.address, amount, sp, 0);
      expect(await p.points.balanceOf(p.bob)).to.equal(sp);
      expect(await p.points.balanceOf(p.alice)).to.equal(0n);
      expect(await p.points.totalSupply()).to.equal(sp);
      expect(await p.usdc.balanceOf(p.alice)).to.equal(USDC(10_000) - amount);
      expect(await p.vault.totalAssets()).to.equal(amount);
      expect(await p.vault.balanceOf(p.factory)).to.equal(amount); // shares 1:1 on an empty vault
      expect(await p.daiVault.totalAssets()).to.equal(0n);
      expect(await p.usdc.balanceOf(p.factory)).to.equal(0n);
      await expectBacked(p);
    });

    it("mint_18DecimalAsset_mintsExactlyTheAmount_andDepositsIntoItsVault", async () => {
      const p = await ready(plain);
      const amount = 1_234_567_891_234_567_891n;
      await expect(p.factory.connect(p.alice).mint(p.dai, amount, p.alice))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.dai.getAddress(), p.alice.address, amount, amount, 0);
      expect(await p.points.balanceOf(p.alice)).to.equal(amount);
      expect(await p.daiVault.totalAssets()).to.equal(amount);
      expect(await p.vault.totalAssets()).to.equal(0n);
      expect(await p.dai.balanceOf(p.alice)).to.equal(DAI(10_000) - amount);
      await expectBacked(p);
    });
  });

  describe("refusals", () => {
    it("mint_revertsWhen_callerNotOnMintWhitelist", async () => {
      const p = await ready(plain);
      for (const who of [p.bob, p.executor, p.admin]) {
        await expect(p.factory.connect(who).mint(p.usdc, USDC(1), p.bob))
          .to.be.revertedWithCustomError(p.factory, "NotMintWhitelisted")
          .withArgs(who.address);
      }
    });

    it("mint_revertsWhen_amountIsZero", async () => {
      const p = await ready(plain);
      await expect(p.factory.connect(p.alice).mint(p.usdc, 0, p.alice)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAmount",
      );
    });

    it("mint_revertsWhen_receiverIsZero", async () => {
      const p = await ready(plain);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), ethers.ZeroAddress)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAddress",
      );
    });

    it("mint_revertsWhen_assetNotRegistered", async () => {
      const p = await ready(plain);
      const other = await deployToken(6, "OTH");
      await expect(p.factory.connect(p.alice).mint(other, USDC(1), p.alice))
        .to.be.revertedWithCustomError(p.factory, "AssetNotRegistered")
        .withArgs(await other.getAddress());
    });

    it("mint_revertsWhen_receiverNotOnPointsTransferWhitelist", async () => {
      const p = await ready(plain);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.carol))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.carol.address);
      expect(await p.vault.totalAssets()).to.equal(0n);
    });

    it("mint_revertsWhen_basketModeIsForced", async () => {
      const p = await ready(plain);
      await p.factory.setBasketModeForced(true);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice)).to.be.revertedWithCustomError(
        p.factory,
        "BasketModeActive",
      );
    });

    it("mint_revertsWhen_allowanceIsShort", async () => {
      const p = await ready(plain);
      await p.usdc.connect(p.alice).approve(p.factory, USDC(1) - 1n);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice))
        .to.be.revertedWithCustomError(p.usdc, "ERC20InsufficientAllowance")
        .withArgs(await p.factory.getAddress(), USDC(1) - 1n, USDC(1));
    });
  });

  describe("fee-on-transfer assets are unsupported", () => {
    async function withFeeOnTransferAsset() {
      const p = await ready(plain);
      const fot = (await ethers.deployContract("FeeOnTransferToken")) as unknown as FeeOnTransferToken;
      const fotVault = await deployVault(p, fot, p.factory, "aFOT");
      await p.factory.registerAsset(fot, fotVault);
      await fot.mint(p.alice, DAI(100));
      await fot.connect(p.alice).approve(p.factory, DAI(100));
      return { p, fot, fotVault };
    }

    it("mint_revertsWhen_assetDeliversLessThanAsked_andNothingMoves", async () => {
      const { p, fot, fotVault } = await withFeeOnTransferAsset();
      // The token burns 1% in flight: the Factory receives 99 of 100.
      await expect(p.factory.connect(p.alice).mint(fot, DAI(100), p.alice))
        .to.be.revertedWithCustomError(p.factory, "UnsupportedAssetTransfer")
        .withArgs(await fot.getAddress(), DAI(100), DAI(99));
      expect(await fot.balanceOf(p.alice)).to.equal(DAI(100));
      expect(await fot.balanceOf(p.factory)).to.equal(0n);
      expect(await fotVault.totalAssets()).to.equal(0n);
      expect(await p.points.totalSupply()).to.equal(0n);
    });
  });

  describe("with an Oracle (price capped at 1.0 for mint, unpegged assets refused)", () => {
    it("mint_atPrice0_99_mints99Percent_roundedDown", async () => {
      const p = await ready(withOracle);
      await p.daiFeed!.setAnswer(feedPrice("0.99"));
      const amount = 1_234_567_891_234_567_891n;
      const sp = 1_222_222_212_322_222_212n; // floor(amount * 0.99): the .09 wei stays with the protocol
      await expect(p.factory.connect(p.alice).mint(p.dai, amount, p.alice))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.dai.getAddress(), p.alice.address, amount, sp, 0);
      expect(await p.points.balanceOf(p.alice)).to.equal(sp);
      expect(await p.daiVault.totalAssets()).to.equal(amount);
      await expectBacked(p);
    });

    it("mint_atPrice1_01_isCappedAtPar", async () => {
      const p = await ready(withOracle);
      await p.usdcFeed!.setAnswer(feedPrice("1.01"));
      await p.factory.connect(p.alice).mint(p.usdc, USDC(1000), p.alice);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
      expect(await p.vault.totalAssets()).to.equal(USDC(1000));
    });

    it("mint_revertsWhen_assetOutsidePegBand", async () => {
      const p = await ready(withOracle);
      await p.usdcFeed!.setAnswer(feedPrice("0.97"));
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice))
        .to.be.revertedWithCustomError(p.factory, "AssetNotPegged")
        .withArgs(await p.usdc.getAddress());
      await p.usdcFeed!.setAnswer(feedPrice("1.03"));
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice))
        .to.be.revertedWithCustomError(p.factory, "AssetNotPegged")
        .withArgs(await p.usdc.getAddress());
    });

    it("mint_revertsWhen_assetPriceIsStale", async () => {
      const p = await ready(withOracle);
      await networkHelpers.time.increase(86_401);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice))
        .to.be.revertedWithCustomError(p.factory, "AssetNotPegged")
        .withArgs(await p.usdc.getAddress());
    });

    it("mint_revertsWhen_anotherAssetIsUnpegged_becauseBasketModeIsOn", async () => {
      const p = await ready(withOracle);
      await p.daiFeed!.setAnswer(feedPrice("0.90"));
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1), p.alice)).to.be.revertedWithCustomError(
        p.factory,
        "BasketModeActive",
      );
    });

    it("mint_revertsWhen_resultRoundsToZero", async () => {
      const p = await ready(withOracle);
      await p.daiFeed!.setAnswer(feedPrice("0.99"));
      // 1 wei of DAI at 0.99 is 0.99 wei of SP, floored to nothing.
      await expect(p.factory.connect(p.alice).mint(p.dai, 1, p.alice))
        .to.be.revertedWithCustomError(p.factory, "AmountTooSmall")
        .withArgs(1);
      expect(await p.dai.balanceOf(p.alice)).to.equal(DAI(10_000));
    });
  });
});
