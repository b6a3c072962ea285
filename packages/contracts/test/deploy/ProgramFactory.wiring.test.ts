import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import {
  HEARTBEAT,
  LOWER_PEG,
  REDEEM_DELAY,
  UPPER_PEG,
  deployThrough,
  oracleParams,
  paramsFor,
  releaseFixture,
} from "../helpers/releaseFixture.js";

// What a program is wired to at birth: cross references, the Points transfer allowlist
// (docs/deployment.md#roles-at-birth: Factory and PSPVault, plus the fee receiver only when a fee is set), and the Oracle feed.
async function deployWith(overrides: (r: Awaited<ReturnType<typeof releaseFixture>>) => Promise<object>) {
  const r = await releaseFixture();
  const p = await deployThrough(r, await paramsFor(r, await overrides(r)));
  return { r, p };
}
const noFees = () => deployWith(async () => ({}));
const withOracle = () => deployWith((r) => oracleParams(r));
const feesToReceiver = () =>
  deployWith(async (r) => ({ mintFeeBps: 50, redeemFeeBps: 30, feeReceiver: r.feeReceiver.address }));
const feesToDefault = () => deployWith(async () => ({ mintFeeBps: 1000, redeemFeeBps: 0 }));
const redeemFeeOnly = () => deployWith(async (r) => ({ redeemFeeBps: 1, feeReceiver: r.feeReceiver.address }));
const receiverWithoutFees = () => deployWith(async (r) => ({ feeReceiver: r.feeReceiver.address }));

describe("ProgramFactory: wiring at birth", () => {
  describe("Points", () => {
    it("points_carriesTheTokenNameAndSymbolPassed_18Decimals_andNoSupply", async () => {
      const { p } = await networkHelpers.loadFixture(noFees);
      expect(await p.points.name()).to.equal("Acme Points");
      expect(await p.points.symbol()).to.equal("ACME");
      expect(await p.points.decimals()).to.equal(18n);
      expect(await p.points.totalSupply()).to.equal(0n);
    });

    it("points_isTransferRestrictedAtBirth", async () => {
      const { p } = await networkHelpers.loadFixture(noFees);
      expect(await p.points.transferRestricted()).to.equal(true);
      await expect(p.tx).to.emit(p.points, "TransferRestrictionUpdated").withArgs(true);
    });

    it("points_allowlistsFactoryAndPspVault_only_whenNoFeeIsSet", async () => {
      const { r, p } = await networkHelpers.loadFixture(noFees);
      await expect(p.tx).to.emit(p.points, "TransferWhitelistUpdated").withArgs(p.addresses.factory, true);
      await expect(p.tx).to.emit(p.points, "TransferWhitelistUpdated").withArgs(p.addresses.pspVault, true);
      const listed = await p.points.queryFilter(p.points.filters.TransferWhitelistUpdated(), p.receipt.blockNumber);
      expect(listed.map((e) => e.args.account)).to.deep.equal([p.addresses.factory, p.addresses.pspVault]);
      for (const a of [r.brandWallet, r.operator, r.operatorAdmin, r.pf, p.vault, r.feeReceiver]) {
        expect(await p.points.isTransferWhitelisted(a)).to.equal(false);
      }
    });

    it("points_doesNotAllowlistAFeeReceiverPassed_whenBothFeesAreZero", async () => {
      const { r, p } = await networkHelpers.loadFixture(receiverWithoutFees);
      expect(await p.factory.feeReceiver()).to.equal(r.feeReceiver.address);
      expect(await p.points.isTransferWhitelisted(r.feeReceiver)).to.equal(false);
    });

    it("points_allowlistsTheFeeReceiver_whenAFeeIsSet", async () => {
      const { r, p } = await networkHelpers.loadFixture(feesToReceiver);
      for (const a of [p.addresses.factory, p.addresses.pspVault, r.feeReceiver.address]) {
        expect(await p.points.isTransferWhitelisted(a)).to.equal(true);
      }
      expect(await p.points.isTransferWhitelisted(r.brandWallet)).to.equal(false);
      await expect(p.tx).to.emit(p.points, "TransferWhitelistUpdated").withArgs(r.feeReceiver.address, true);
    });

    it("points_allowlistsTheFeeReceiver_whenOnlyTheRedeemFeeIsSet", async () => {
      const { r, p } = await networkHelpers.loadFixture(redeemFeeOnly);
      expect(await p.points.isTransferWhitelisted(r.feeReceiver)).to.equal(true);
    });

    it("points_allowlistsTheBrandWallet_whenAFeeIsSetWithoutAReceiver_becauseItIsTheDefaultReceiver", async () => {
      const { r, p } = await networkHelpers.loadFixture(feesToDefault);
      expect(await p.factory.feeReceiver()).to.equal(r.brandWallet.address);
      expect(await p.points.isTransferWhitelisted(r.brandWallet)).to.equal(true);
    });
  });

  describe("CollateralVault", () => {
    it("collateralVault_holdsTheCollateralAsset_forTheProgramsFactory", async () => {
      const { r, p } = await networkHelpers.loadFixture(noFees);
      expect(await p.vault.asset()).to.equal(await r.usdc.getAddress());
      expect(await p.vault.factory()).to.equal(p.addresses.factory);
      expect(await p.vault.totalAssets()).to.equal(0n);
      expect(await p.vault.totalSupply()).to.equal(0n);
    });

    it("collateralVault_isNamedAfterTheToken_withTheAssetsDecimals", async () => {
      const { p } = await networkHelpers.loadFixture(noFees);
      expect(await p.vault.name()).to.equal("Acme Points Collateral");
      expect(await p.vault.symbol()).to.equal("cACME");
      expect(await p.vault.decimals()).to.equal(6n);
    });
  });

  describe("Factory", () => {
    it("factory_pointsAtThePrograms_points_andHasNoOracle_whenNoFeedIsGiven", async () => {
      const { p } = await networkHelpers.loadFixture(noFees);
      expect(await p.factory.points()).to.equal(p.addresses.points);
      expect(await p.factory.oracle()).to.equal(ethers.ZeroAddress);
      await expect(p.tx).to.emit(p.factory, "OracleUpdated").withArgs(ethers.ZeroAddress);
    });

    it("factory_pointsAtTheProgramsOracle_whenAFeedIsGiven", async () => {
      const { p } = await networkHelpers.loadFixture(withOracle);
      expect(await p.factory.oracle()).to.equal(p.addresses.oracle);
      await expect(p.tx).to.emit(p.factory, "OracleUpdated").withArgs(p.addresses.oracle);
    });

    it("factory_registersTheCollateralAsset_withTheProgramsVault_only", async () => {
      const { r, p } = await networkHelpers.loadFixture(noFees);
      const usdc = await r.usdc.getAddress();
      expect(await p.factory.assets()).to.deep.equal([usdc]);
      expect(await p.factory.vaultOf(usdc)).to.equal(p.addresses.collateralVault);
      await expect(p.tx).to.emit(p.factory, "AssetRegistered").withArgs(usdc, p.addresses.collateralVault);
    });

    it("factory_hasZeroFees_theBrandWalletAsFeeReceiver_andTheRedeemDelayPassed_byDefault", async () => {
      const { r, p } = await networkHelpers.loadFixture(noFees);
      expect(await p.factory.mintFeeBps()).to.equal(0n);
      expect(await p.factory.redeemFeeBps()).to.equal(0n);
      expect(await p.factory.feeReceiver()).to.equal(r.brandWallet.address);
      expect(await p.factory.redeemDelay()).to.equal(REDEEM_DELAY);
      await expect(p.tx).to.emit(p.factory, "FeesUpdated").withArgs(0, 0);
      await expect(p.tx).to.emit(p.factory, "FeeReceiverUpdated").withArgs(r.brandWallet.address);
      await expect(p.tx).to.emit(p.factory, "RedeemDelayUpdated").withArgs(REDEEM_DELAY);
    });

    it("factory_takesTheFeesAndFeeReceiverPassed", async () => {
      const { r, p } = await networkHelpers.loadFixture(feesToReceiver);
      expect(await p.factory.mintFeeBps()).to.equal(50n);
      expect(await p.factory.redeemFeeBps()).to.equal(30n);
      expect(await p.factory.feeReceiver()).to.equal(r.feeReceiver.address);
      await expect(p.tx).to.emit(p.factory, "FeesUpdated").withArgs(50, 30);
    });

    it("factory_startsWithEmptyAllowlists_noBasketMode_andNoRedeemRequests", async () => {
      const { r, p } = await networkHelpers.loadFixture(withOracle);
      for (const a of [r.brandWallet, r.operator, r.outsider]) {
        expect(await p.factory.isMintWhitelisted(a)).to.equal(false);
        expect(await p.factory.isRedeemWhitelisted(a)).to.equal(false);
      }
      expect(await p.factory.basketModeForced()).to.equal(false);
      expect(await p.factory.isBasketMode()).to.equal(false);
      expect(await p.factory.redeemRequestCount()).to.equal(0n);
    });
  });

  describe("PSPVault", () => {
    it("pspVault_pointsAtThePrograms_points_withNothingAllocated", async () => {
      const { p } = await networkHelpers.loadFixture(noFees);
      expect(await p.psp.points()).to.equal(p.addresses.points);
      expect(await p.psp.unallocated()).to.equal(0n);
      expect(await p.psp.totalAllocated()).to.equal(0n);
    });
  });

  describe("Oracle", () => {
    it("oracle_hasTheCollateralFeed_withTheHeartbeatAndPegBandPassed", async () => {
      const { r, p } = await networkHelpers.loadFixture(withOracle);
      const usdc = await r.usdc.getAddress();
      const feed = await r.feed.getAddress();
      const f = await p.oracle!.feedOf(usdc);
      expect([f.feed, f.heartbeat, f.feedDecimals, f.lowerPeg, f.upperPeg]).to.deep.equal([
        feed,
        HEARTBEAT,
        8n,
        LOWER_PEG,
        UPPER_PEG,
      ]);
      await expect(p.tx).to.emit(p.oracle!, "FeedConfigured").withArgs(usdc, feed, HEARTBEAT, LOWER_PEG, UPPER_PEG);
    });

    it("oracle_pricesTheCollateralAtPar_andPegged_rightAfterDeployment", async () => {
      const { r, p } = await networkHelpers.loadFixture(withOracle);
      expect(await p.oracle!.getPrice(r.usdc)).to.equal(ethers.parseUnits("1", 18));
      expect(await p.oracle!.isPegged(r.usdc)).to.equal(true);
    });

    it("oracle_isNotDeployed_whenNoFeedIsGiven", async () => {
      const { r, p } = await networkHelpers.loadFixture(noFees);
      expect(p.addresses.oracle).to.equal(ethers.ZeroAddress);
      const predicted = await r.pf.predictAddresses("acme");
      expect(await ethers.provider.getCode(predicted.oracle)).to.equal("0x");
    });
  });

  describe("every contract", () => {
    it("everyContract_isUnpaused_atBirth", async () => {
      const { p } = await networkHelpers.loadFixture(withOracle);
      for (const c of [p.points, p.factory, p.vault, p.psp, p.oracle!]) expect(await c.paused()).to.equal(false);
    });
  });
});
