import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { deployProgram, ethers, networkHelpers, type Program, REDEEM_DELAY, ROLES } from "../helpers/programFixture.js";
import { bareInitParams, deployToken, deployVault, freshFactory, registerDai } from "./factoryFixture.js";

const fixture = () => deployProgram();
const load = () => networkHelpers.loadFixture(fixture);
const unauthorized = "AccessControlUnauthorizedAccount";

describe("Factory: assets and configuration", () => {
  describe("initialize (roles and settings at birth)", () => {
    it("initialize_setsEveryReference_andTheFirstAsset", async () => {
      const p = await load();
      expect(await p.factory.points()).to.equal(await p.points.getAddress());
      expect(await p.factory.oracle()).to.equal(ethers.ZeroAddress);
      expect(await p.factory.feeReceiver()).to.equal(p.feeReceiver.address);
      expect([await p.factory.mintFeeBps(), await p.factory.redeemFeeBps()]).to.deep.equal([0n, 0n]);
      expect(await p.factory.redeemDelay()).to.equal(BigInt(REDEEM_DELAY));
      expect(await p.factory.assets()).to.deep.equal([await p.usdc.getAddress()]);
      expect(await p.factory.vaultOf(p.usdc)).to.equal(await p.vault.getAddress());
      expect(await p.factory.redeemRequestCount()).to.equal(0n);
      expect(await p.factory.isBasketMode()).to.equal(false);
    });

    it("initialize_revertsWhen_calledAgain", async () => {
      const p = await load();
      const params = bareInitParams(p, { admin: p.outsider.address, executor: p.outsider.address });
      await expect(p.factory.connect(p.outsider).initialize(params)).to.be.revertedWithCustomError(
        p.factory,
        "InvalidInitialization",
      );
    });

    it("initialize_revertsWhen_feeOn_andFeeReceiverNotOnTransferWhitelist", async () => {
      const p = await load();
      const fresh = await freshFactory();
      const params = bareInitParams(p, { feeReceiver: p.outsider.address, mintFeeBps: 10 });
      await expect(fresh.initialize(params))
        .to.be.revertedWithCustomError(fresh, "FeeReceiverNotWhitelisted")
        .withArgs(p.outsider.address);
      await p.points.addToTransferWhitelist(p.outsider);
      await expect(fresh.initialize(params)).to.emit(fresh, "FeesUpdated").withArgs(10, 0);
    });
  });

  describe("registerAsset (DEFAULT_ADMIN_ROLE; one CollateralVault per asset, 6 and 18 decimals)", () => {
    it("registerAsset_registers18DecimalDai_withItsVault", async () => {
      const p = await load();
      await expect(p.factory.registerAsset(p.dai, p.daiVault))
        .to.emit(p.factory, "AssetRegistered")
        .withArgs(await p.dai.getAddress(), await p.daiVault.getAddress());
      expect(await p.factory.assets()).to.deep.equal([await p.usdc.getAddress(), await p.dai.getAddress()]);
      expect(await p.factory.vaultOf(p.dai)).to.equal(await p.daiVault.getAddress());
    });

    it("vaultOf_isZero_forAnUnregisteredAsset", async () => {
      const p = await load();
      expect(await p.factory.vaultOf(p.dai)).to.equal(ethers.ZeroAddress);
    });

    it("registerAsset_revertsWhen_callerLacksDefaultAdminRole_evenForAManager", async () => {
      const p = await load();
      await p.factory.grantRole(ROLES.MANAGER, p.dave);
      for (const who of [p.dave, p.executor, p.outsider, p.alice]) {
        await expect(p.factory.connect(who).registerAsset(p.dai, p.daiVault))
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.DEFAULT_ADMIN);
      }
      expect(await p.factory.assets()).to.deep.equal([await p.usdc.getAddress()]);
    });

    it("registerAsset_revertsWhen_assetAlreadyRegistered", async () => {
      const p = await load();
      await registerDai(p);
      await expect(p.factory.registerAsset(p.dai, p.daiVault))
        .to.be.revertedWithCustomError(p.factory, "AssetAlreadyRegistered")
        .withArgs(await p.dai.getAddress());
    });

    it("registerAsset_revertsWhen_vaultHoldsAnotherAsset", async () => {
      const p = await load();
      await expect(p.factory.registerAsset(p.dai, p.vault))
        .to.be.revertedWithCustomError(p.factory, "InvalidVault")
        .withArgs(await p.vault.getAddress(), await p.dai.getAddress());
    });

    it("registerAsset_revertsWhen_vaultBelongsToAnotherFactory", async () => {
      const p = await load();
      const foreign = await deployVault(p, p.dai, p.outsider.address, "fDAI");
      await expect(p.factory.registerAsset(p.dai, foreign))
        .to.be.revertedWithCustomError(p.factory, "InvalidVault")
        .withArgs(await foreign.getAddress(), await p.dai.getAddress());
    });

    it("registerAsset_revertsWhen_assetHasMoreThan18Decimals", async () => {
      const p = await load();
      const token = await deployToken(19, "T19");
      const vault = await deployVault(p, token, p.factory, "a19");
      await expect(p.factory.registerAsset(token, vault))
        .to.be.revertedWithCustomError(p.factory, "UnsupportedDecimals")
        .withArgs(await token.getAddress(), 19);
    });

    it("registerAsset_revertsWhen_assetOrVaultIsZero", async () => {
      const p = await load();
      await expect(p.factory.registerAsset(ethers.ZeroAddress, p.daiVault)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAddress",
      );
      await expect(p.factory.registerAsset(p.dai, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAddress",
      );
    });

    // MAX_ASSETS bounds every basket loop.
    it("registerAsset_revertsWhen_16AssetsAreRegistered", async () => {
      const p = await load();
      expect(await p.factory.MAX_ASSETS()).to.equal(16n);
      for (let i = 1; i < 16; i++) {
        const token = await deployToken(6 + (i % 13), `T${i}`);
        await p.factory.registerAsset(token, await deployVault(p, token, p.factory, `a${i}`));
      }
      expect((await p.factory.assets()).length).to.equal(16);
      await expect(p.factory.registerAsset(p.dai, p.daiVault))
        .to.be.revertedWithCustomError(p.factory, "TooManyAssets")
        .withArgs(16);
    });
  });

  describe("setRedeemDelay (MANAGER_ROLE; Limits: at most 30 days)", () => {
    it("setRedeemDelay_setsDelay_upTo30Days_andEmits", async () => {
      const p = await load();
      const max = 30n * 24n * 3600n;
      await expect(p.factory.setRedeemDelay(max)).to.emit(p.factory, "RedeemDelayUpdated").withArgs(max);
      expect(await p.factory.redeemDelay()).to.equal(max);
      await expect(p.factory.setRedeemDelay(0)).to.emit(p.factory, "RedeemDelayUpdated").withArgs(0);
      expect(await p.factory.redeemDelay()).to.equal(0n);
    });

    it("setRedeemDelay_revertsWhen_above30Days", async () => {
      const p = await load();
      const max = 30n * 24n * 3600n;
      await expect(p.factory.setRedeemDelay(max + 1n))
        .to.be.revertedWithCustomError(p.factory, "RedeemDelayTooLong")
        .withArgs(max + 1n, max);
    });

    it("setRedeemDelay_revertsWhen_callerLacksManagerRole", async () => {
      const p = await load();
      for (const who of [p.executor, p.outsider]) {
        await expect(p.factory.connect(who).setRedeemDelay(0))
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.MANAGER);
      }
    });
  });

  describe("setFees (DEFAULT_ADMIN_ROLE; Limits: at most 1,000 bps each)", () => {
    it("setFees_setsBothFees_upToTheMaximum_andEmits", async () => {
      const p = await load();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await expect(p.factory.setFees(1000, 7)).to.emit(p.factory, "FeesUpdated").withArgs(1000, 7);
      expect([await p.factory.mintFeeBps(), await p.factory.redeemFeeBps()]).to.deep.equal([1000n, 7n]);
    });

    it("setFees_revertsWhen_feeOn_andFeeReceiverNotOnTransferWhitelist", async () => {
      const p = await load();
      for (const [mint, redeem] of [
        [1, 0],
        [0, 1],
      ]) {
        await expect(p.factory.setFees(mint, redeem))
          .to.be.revertedWithCustomError(p.factory, "FeeReceiverNotWhitelisted")
          .withArgs(p.feeReceiver.address);
      }
      await expect(p.factory.setFees(0, 0)).to.emit(p.factory, "FeesUpdated").withArgs(0, 0);
    });

    it("setFees_allowsAnUnlistedFeeReceiver_whileTransfersAreUnrestricted", async () => {
      const p = await load();
      await p.points.setTransferRestricted(false);
      await expect(p.factory.setFees(10, 10)).to.emit(p.factory, "FeesUpdated").withArgs(10, 10);
    });

    it("setFees_revertsWhen_eitherFeeAbove1000Bps", async () => {
      const p = await load();
      await expect(p.factory.setFees(1001, 0))
        .to.be.revertedWithCustomError(p.factory, "FeeTooHigh")
        .withArgs(1001, 1000);
      await expect(p.factory.setFees(0, 1001))
        .to.be.revertedWithCustomError(p.factory, "FeeTooHigh")
        .withArgs(1001, 1000);
    });

    it("setFees_revertsWhen_callerIsNotDefaultAdmin_evenAManager", async () => {
      const p = await load();
      await p.factory.grantRole(ROLES.MANAGER, p.dave);
      await expectAdminOnly(p, p.factory.connect(p.dave).setFees(1, 1), p.dave);
      await expectAdminOnly(p, p.factory.connect(p.executor).setFees(1, 1), p.executor);
    });
  });

  describe("setFeeReceiver and setOracle (DEFAULT_ADMIN_ROLE)", () => {
    it("setFeeReceiver_setsReceiver_andEmits", async () => {
      const p = await load();
      await expect(p.factory.setFeeReceiver(p.carol))
        .to.emit(p.factory, "FeeReceiverUpdated")
        .withArgs(p.carol.address);
      expect(await p.factory.feeReceiver()).to.equal(p.carol.address);
    });

    it("setFeeReceiver_revertsWhen_feeOn_andReceiverNotOnTransferWhitelist", async () => {
      const p = await load();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await p.factory.setFees(5, 5);
      await expect(p.factory.setFeeReceiver(p.carol))
        .to.be.revertedWithCustomError(p.factory, "FeeReceiverNotWhitelisted")
        .withArgs(p.carol.address);
      expect(await p.factory.feeReceiver()).to.equal(p.feeReceiver.address);
    });

    it("setFeeReceiver_revertsWhen_zero", async () => {
      const p = await load();
      await expect(p.factory.setFeeReceiver(ethers.ZeroAddress)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAddress",
      );
    });

    it("setOracle_setsAndClearsOracle_andEmits", async () => {
      const p = await load();
      await expect(p.factory.setOracle(p.carol)).to.emit(p.factory, "OracleUpdated").withArgs(p.carol.address);
      expect(await p.factory.oracle()).to.equal(p.carol.address);
      await expect(p.factory.setOracle(ethers.ZeroAddress))
        .to.emit(p.factory, "OracleUpdated")
        .withArgs(ethers.ZeroAddress);
      expect(await p.factory.oracle()).to.equal(ethers.ZeroAddress);
    });

    it("setFeeReceiver_and_setOracle_revertWhen_callerIsNotDefaultAdmin", async () => {
      const p = await load();
      await p.factory.grantRole(ROLES.MANAGER, p.dave);
      for (const who of [p.dave, p.executor, p.outsider]) {
        await expectAdminOnly(p, p.factory.connect(who).setFeeReceiver(who), who);
        await expectAdminOnly(p, p.factory.connect(who).setOracle(who), who);
      }
    });
  });

  describe("setBasketModeForced (MANAGER_ROLE)", () => {
    it("setBasketModeForced_turnsBasketModeOnAndOff_andEmits", async () => {
      const p = await load();
      await expect(p.factory.setBasketModeForced(true)).to.emit(p.factory, "BasketModeForced").withArgs(true);
      expect([await p.factory.basketModeForced(), await p.factory.isBasketMode()]).to.deep.equal([true, true]);
      await expect(p.factory.setBasketModeForced(false)).to.emit(p.factory, "BasketModeForced").withArgs(false);
      expect([await p.factory.basketModeForced(), await p.factory.isBasketMode()]).to.deep.equal([false, false]);
    });

    it("setBasketModeForced_revertsWhen_callerLacksManagerRole", async () => {
      const p = await load();
      for (const who of [p.executor, p.outsider]) {
        await expect(p.factory.connect(who).setBasketModeForced(true))
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.MANAGER);
      }
    });
  });
});

/** DEFAULT_ADMIN_ROLE setters refuse everyone else, managers included. */
async function expectAdminOnly(p: Program, tx: Promise<unknown>, who: HardhatEthersSigner) {
  await expect(tx).to.be.revertedWithCustomError(p.factory, unauthorized).withArgs(who.address, ROLES.DEFAULT_ADMIN);
}
