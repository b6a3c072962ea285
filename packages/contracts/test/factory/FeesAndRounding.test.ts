import { expect } from "chai";
import { deployProgram, networkHelpers, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, DAI, expectBacked, mintWith, aliceReadyToMint } from "./factoryFixture.js";

// 0.3% to mint, 0.5% to redeem.
const fixture = () => deployProgram({ mintFeeBps: 30, redeemFeeBps: 50 });

/** alice may mint USDC and DAI; DAI is registered. The fee receiver is listed at birth (fees are on). */
async function ready() {
  const p = await networkHelpers.loadFixture(fixture);
  await aliceReadyToMint(p);
  return p;
}

describe("Factory: fees and rounding (fees in SP to feeReceiver, rounding favours the protocol)", () => {
  describe("mint fee", () => {
    it("mint_revertsWhen_feeReceiverRemovedFromTransferWhitelist", async () => {
      const p = await ready();
      await p.points.removeFromTransferWhitelist(p.feeReceiver);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1000), p.alice))
        .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
        .withArgs(p.feeReceiver.address);
      expect(await p.vault.totalAssets()).to.equal(0n);
      expect(await p.usdc.balanceOf(p.alice)).to.equal(USDC(10_000));
    });

    it("mint_paysTheFeeInSpToFeeReceiver", async () => {
      const p = await ready();
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(1000), p.alice))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.usdc.getAddress(), p.alice.address, USDC(1000), SP(997), SP(3));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(997));
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(SP(3));
      expect(await p.points.totalSupply()).to.equal(SP(1000));
      expect(await p.vault.totalAssets()).to.equal(USDC(1000));
      await expectBacked(p);
    });

    it("mint_feeRoundsUp_andTheUserAmountRoundsDown", async () => {
      const p = await ready();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      const amount = DAI(1) + 1n;
      // 0.3% of 1e18 + 1 wei is 3e15 + 0.003 wei: the fee takes 3e15 + 1.
      const fee = 3_000_000_000_000_001n;
      await expect(p.factory.connect(p.alice).mint(p.dai, amount, p.alice))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.dai.getAddress(), p.alice.address, amount, amount - fee, fee);
      expect(await p.points.balanceOf(p.alice)).to.equal(997_000_000_000_000_000n);
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(fee);
      await expectBacked(p);
    });

    it("mint_revertsWhen_theFeeLeavesNothing", async () => {
      const p = await ready();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await expect(p.factory.connect(p.alice).mint(p.dai, 1, p.alice))
        .to.be.revertedWithCustomError(p.factory, "AmountTooSmall")
        .withArgs(1);
    });

    it("mint_atTheMaximumFee_keeps10Percent", async () => {
      const p = await ready();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await p.factory.setFees(1000, 1000);
      await p.factory.connect(p.alice).mint(p.usdc, USDC(1000), p.alice);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(900));
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(SP(100));
    });

    it("mint_withZeroFee_mintsNothingToFeeReceiver_evenWhenUnlisted", async () => {
      const p = await ready();
      await p.factory.setFees(0, 0);
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice))
        .to.emit(p.factory, "Minted")
        .withArgs(p.alice.address, await p.usdc.getAddress(), p.alice.address, USDC(10), SP(10), 0);
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(0n);
    });
  });

  describe("redeem fee", () => {
    /** alice holds 997 SP (after the mint fee) and may redeem all of it. */
    async function holding() {
      const p = await ready();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await p.factory.connect(p.alice).mint(p.usdc, USDC(1000), p.alice);
      await allowRedeemer(p, p.alice, SP(997));
      return p;
    }

    it("finalizeRedeem_sendsFeeToFeeReceiver_burnsTheRest_feeUp_payoutDown", async () => {
      const p = await holding();
      const amount = 1_234_567_890_123_456_789n;
      const fee = 6_172_839_450_617_284n; // ceil(amount * 0.5%)
      const net = amount - fee; // 1.228395050672839505 SP
      const paid = 1_228_395n; // floor(net / 1e12) USDC units
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, amount, false);
      const tx = p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx).to.emit(p.factory, "RedeemFinalized").withArgs(1n, p.executor.address, net, fee, false);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.usdc.getAddress(), p.bob.address, paid);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(paid);
      expect(await p.points.balanceOf(p.feeReceiver)).to.equal(SP(3) + fee);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(997) - amount);
      expect(await p.points.balanceOf(p.factory)).to.equal(0n);
      expect(await p.points.totalSupply()).to.equal(SP(1000) - net);
      expect(await p.vault.totalAssets()).to.equal(USDC(1000) - paid);
      await expectBacked(p);
    });

    it("finalizeRedeem_burnsTheFee_whenFeeReceiverRemovedFromTransferWhitelist_payingNobodyElse", async () => {
      const p = await holding();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(10), false);
      await p.points.addToTransferWhitelist(p.carol);
      await p.factory.setFeeReceiver(p.carol);
      await p.points.removeFromTransferWhitelist(p.carol);
      const supply = await p.points.totalSupply();
      const tx = p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx).to.emit(p.factory, "RedeemFeeBurned").withArgs(1n, p.carol.address, SP("0.05"));
      // The whole request is burned; collateral is paid for the net only, the fee's stays as backing.
      await expect(tx).to.emit(p.factory, "RedeemFinalized").withArgs(1n, p.executor.address, SP(10), 0n, false);
      expect(await p.points.totalSupply()).to.equal(supply - SP(10));
      expect(await p.points.balanceOf(p.carol)).to.equal(0n);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC("9.95"));
      await expectBacked(p);
    });

    it("finalizeRedeem_usesTheFeeInForceAtRequest_notALaterRaise", async () => {
      const p = await holding();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(10), false);
      await p.factory.setFees(30, 1000);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(10), false);
      expect((await p.factory.getRedeemRequest(1)).redeemFeeBps).to.equal(50n);
      expect((await p.factory.getRedeemRequest(2)).redeemFeeBps).to.equal(1000n);
      await expect(p.factory.connect(p.executor).finalizeRedeem(1))
        .to.emit(p.factory, "RedeemFinalized")
        .withArgs(1n, p.executor.address, SP("9.95"), SP("0.05"), false);
      await expect(p.factory.connect(p.executor).finalizeRedeem(2))
        .to.emit(p.factory, "RedeemFinalized")
        .withArgs(2n, p.executor.address, SP(9), SP(1), false);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC("18.95"));
    });
  });

  describe("backing invariant (collateral at 1.0 >= SP total supply after any sequence)", () => {
    it("backing_holds_afterEveryStepOfAMixedSequence", async () => {
      const p = await ready();
      await p.points.addToTransferWhitelist(p.feeReceiver);
      await mintWith(p, p.usdc, p.bob, 333_333_333n);
      await expectBacked(p);
      await p.factory.connect(p.alice).mint(p.dai, DAI(77) + 7n, p.alice);
      await expectBacked(p);
      await allowRedeemer(p, p.alice, SP(1000));
      await allowRedeemer(p, p.bob, SP(1000));
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.carol, SP(3) + 999n, false);
      await p.factory.connect(p.bob).requestRedeem(p.dai, p.carol, SP(33) + 1n, false);
      await p.factory.connect(p.executor).finalizeRedeem(1);
      await expectBacked(p);
      await p.factory.connect(p.executor).finalizeRedeem(2);
      await expectBacked(p);
      await p.factory.setBasketModeForced(true);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.carol, SP(11) + 11n, true);
      await p.factory.connect(p.executor).finalizeRedeem(3);
      await expectBacked(p);
      // Everything left in circulation can still be redeemed in a basket.
      const rest = await p.points.balanceOf(p.bob);
      await p.factory.connect(p.bob).requestRedeem(p.usdc, p.bob, rest, true);
      await p.factory.connect(p.executor).finalizeRedeem(4);
      await expectBacked(p);
      expect(await p.points.balanceOf(p.bob)).to.equal(0n);
    });
  });
});
