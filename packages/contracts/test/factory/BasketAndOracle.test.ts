import { expect } from "chai";
import { deployProgram, ethers, networkHelpers, type Program, SP } from "../helpers/programFixture.js";
import {
  allowRedeemer,
  countEvents,
  DAI,
  deployToken,
  deployVault,
  expectBacked,
  feedPrice,
  mintWith,
  registerDai,
} from "./factoryFixture.js";

const withOracle = () => deployProgram({ withOracle: true });
const plain = () => deployProgram();

// Odd amounts so every pro-rata share has to be floored.
const USDC_IN = 1_000_000_001n; // 1,000.000001 USDC
const DAI_IN = DAI(500) + 3n;

/** Both vaults funded by alice (USDC_IN and DAI_IN), alice may redeem all her SP. */
async function twoVaults(fixture: () => Promise<Program>) {
  const p = await networkHelpers.loadFixture(fixture);
  await registerDai(p);
  await mintWith(p, p.usdc, p.alice, USDC_IN);
  await mintWith(p, p.dai, p.alice, DAI_IN);
  await allowRedeemer(p, p.alice, await p.points.balanceOf(p.alice));
  return p;
}

describe("Factory: basket mode and the oracle", () => {
  describe("basket mode is on when forced, or any asset is unpegged or stale", () => {
    it("isBasketMode_isOff_whenEveryAssetIsPeggedAndFresh", async () => {
      const p = await twoVaults(withOracle);
      expect(await p.factory.isBasketMode()).to.equal(false);
    });

    it("isBasketMode_followsTheManagersForcing", async () => {
      const p = await twoVaults(plain);
      await p.factory.setBasketModeForced(true);
      expect(await p.factory.isBasketMode()).to.equal(true);
      await p.factory.setBasketModeForced(false);
      expect(await p.factory.isBasketMode()).to.equal(false);
    });

    it("isBasketMode_isOn_whileAnyAssetIsOutsideItsPegBand", async () => {
      const p = await twoVaults(withOracle);
      await p.usdcFeed!.setAnswer(feedPrice("0.9799"));
      expect(await p.factory.isBasketMode()).to.equal(true);
      await p.usdcFeed!.setAnswer(feedPrice("0.98")); // the band is inclusive
      expect(await p.factory.isBasketMode()).to.equal(false);
      await p.daiFeed!.setAnswer(feedPrice("1.0201"));
      expect(await p.factory.isBasketMode()).to.equal(true);
    });

    it("isBasketMode_isOn_whileAnyAssetPriceIsStale", async () => {
      const p = await twoVaults(withOracle);
      // Pin each block's time so the feed's age is exact when the view runs on that block.
      const t = (await networkHelpers.time.latest()) + 10;
      await networkHelpers.time.setNextBlockTimestamp(t);
      await p.daiFeed!.setAnswerAt(feedPrice("1"), t - 86_400);
      expect(await p.factory.isBasketMode()).to.equal(false); // exactly one heartbeat old: fresh
      await networkHelpers.time.setNextBlockTimestamp(t + 1);
      await p.daiFeed!.setAnswerAt(feedPrice("1"), t - 86_400);
      expect(await p.factory.isBasketMode()).to.equal(true);
      await p.daiFeed!.setAnswer(feedPrice("1"));
      expect(await p.factory.isBasketMode()).to.equal(false);
    });

    it("isBasketMode_isOn_whenAFeedReverts", async () => {
      const p = await twoVaults(withOracle);
      await p.usdcFeed!.setReverts(true);
      expect(await p.factory.isBasketMode()).to.equal(true);
    });

    it("malformedFeed_cannotBrickRedemptions_basketModeTurnsOn_andABasketRequestIsPaid", async () => {
      const p = await twoVaults(withOracle);
      await p.usdcFeed!.setMalformed(true);
      expect(await p.factory.isBasketMode()).to.equal(true);
      const id = await p.factory.connect(p.alice).requestRedeem.staticCall(p.usdc, p.alice, SP(10), true);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(10), true);
      await expect(p.factory.connect(p.executor).finalizeRedeem(id))
        .to.emit(p.factory, "RedeemFinalized")
        .withArgs(id, p.executor.address, SP(10), 0n, true);
    });

    it("registerAsset_revertsWith_AssetWithoutFeed_onAnOracleProgram_untilTheFeedIsSet", async () => {
      const p = await twoVaults(withOracle);
      const token = await deployToken(6, "NOF");
      const vault = await deployVault(p, token, p.factory, "aNOF");
      await expect(p.factory.registerAsset(token, vault))
        .to.be.revertedWithCustomError(p.factory, "AssetWithoutFeed")
        .withArgs(await token.getAddress());
      const feed = await ethers.deployContract("MockAggregatorV3", [8, feedPrice("1")]);
      await p.oracle!.setFeed(token, feed, 86_400, SP("0.98"), SP("1.02"));
      await expect(p.factory.registerAsset(token, vault))
        .to.emit(p.factory, "AssetRegistered")
        .withArgs(await token.getAddress(), await vault.getAddress());
      expect(await p.factory.isBasketMode()).to.equal(false);
    });

    it("isBasketMode_isOn_whenARegisteredAssetsFeedIsRemoved", async () => {
      const p = await twoVaults(withOracle);
      await p.oracle!.removeFeed(p.dai);
      expect(await p.factory.isBasketMode()).to.equal(true);
    });

    it("isBasketMode_ignoresPrices_withoutAnOracle", async () => {
      const p = await twoVaults(plain);
      expect(await p.factory.oracle()).to.equal(ethers.ZeroAddress);
      expect(await p.factory.isBasketMode()).to.equal(false);
    });
  });

  describe("a basket redemption pays pro rata from every vault", () => {
    it("finalizeRedeem_inForcedBasketMode_paysEveryVaultProRata_roundedDown", async () => {
      const p = await twoVaults(plain);
      await p.factory.setBasketModeForced(true);
      const net = SP(7) + 1n;
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, net, true);
      // total = 1,500.000001000000000003 normalised; shares floor(net * vault / total).
      const usdcOut = 4_666_666n;
      const daiOut = 2_333_333_331_777_777_779n;
      const tx = p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.usdc.getAddress(), p.bob.address, usdcOut);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.dai.getAddress(), p.bob.address, daiOut);
      await expect(tx).to.emit(p.factory, "RedeemFinalized").withArgs(1n, p.executor.address, net, 0, true);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(usdcOut);
      expect(await p.dai.balanceOf(p.bob)).to.equal(daiOut);
      expect(await p.vault.totalAssets()).to.equal(USDC_IN - usdcOut);
      expect(await p.daiVault.totalAssets()).to.equal(DAI_IN - daiOut);
      expect(await p.points.totalSupply()).to.equal(USDC_IN * 10n ** 12n + DAI_IN - net);
      await expectBacked(p);
    });

    it("finalizeRedeem_inBasketModeFromADepeg_paysEveryAssetAtPar", async () => {
      const p = await twoVaults(withOracle);
      await p.usdcFeed!.setAnswer(feedPrice("0.90"));
      await p.factory.connect(p.alice).requestRedeem(p.dai, p.bob, SP(7) + 1n, true);
      await p.factory.connect(p.executor).finalizeRedeem(1);
      // Same shares as when forced: the depegged price does not enter a basket payout.
      expect(await p.usdc.balanceOf(p.bob)).to.equal(4_666_666n);
      expect(await p.dai.balanceOf(p.bob)).to.equal(2_333_333_331_777_777_779n);
      await expectBacked(p);
    });

    it("finalizeRedeem_inBasketMode_skipsAnEmptyVault", async () => {
      const p = await networkHelpers.loadFixture(plain);
      await registerDai(p);
      await mintWith(p, p.dai, p.alice, DAI(10));
      await allowRedeemer(p, p.alice, DAI(10));
      await p.factory.setBasketModeForced(true);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, DAI(4), true);
      const tx = await p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.dai.getAddress(), p.bob.address, DAI(4));
      expect(await countEvents(p, tx, "CollateralPaid")).to.equal(1);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(0n);
    });

    it("finalizeRedeem_revertsWhen_basketModeEndedSinceABasketRequest", async () => {
      const p = await twoVaults(plain);
      await p.factory.setBasketModeForced(true);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(1), true);
      await p.factory.setBasketModeForced(false);
      await expect(p.factory.connect(p.executor).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
        .withArgs(false);
    });
  });

  describe("outside basket mode a redemption pays only the asset asked for", () => {
    it("finalizeRedeem_inNormalMode_paysOnlyTheAskedAsset", async () => {
      const p = await twoVaults(withOracle);
      await p.factory.connect(p.alice).requestRedeem(p.dai, p.bob, SP(7) + 1n, false);
      const tx = await p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.dai.getAddress(), p.bob.address, SP(7) + 1n);
      expect(await countEvents(p, tx, "CollateralPaid")).to.equal(1);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(0n);
      expect(await p.vault.totalAssets()).to.equal(USDC_IN);
      expect(await p.daiVault.totalAssets()).to.equal(DAI_IN - SP(7) - 1n);
      await expectBacked(p);
    });

    // DAI paid for 100 SP at a feed price: floor(100 / price) above par, par below it.
    const PAYOUTS: [string, string, bigint][] = [
      ["finalizeRedeem_atPriceAbovePar_paysLessCollateral_roundedDown", "1.013", 98_716_683_119_447_186_574n],
      ["finalizeRedeem_atPriceBelowPar_paysAtPar_neverMore", "0.99", DAI(100)],
    ];
    for (const [title, price, paid] of PAYOUTS) {
      it(title, async () => {
        const p = await twoVaults(withOracle);
        await p.daiFeed!.setAnswer(feedPrice(price));
        await p.factory.connect(p.alice).requestRedeem(p.dai, p.bob, SP(100), false);
        await p.factory.connect(p.executor).finalizeRedeem(1);
        expect(await p.dai.balanceOf(p.bob)).to.equal(paid);
        await expectBacked(p);
      });
    }

    it("finalizeRedeem_revertsWhen_theAskedVaultHoldsTooLittle", async () => {
      const p = await twoVaults(plain);
      await p.factory.connect(p.alice).requestRedeem(p.dai, p.bob, DAI(501), false);
      await expect(p.factory.connect(p.executor).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.daiVault, "ERC4626ExceededMaxWithdraw")
        .withArgs(await p.factory.getAddress(), DAI(501), DAI_IN);
    });
  });
});
