import { expect } from "chai";
import { deployProgram, networkHelpers, type Program, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, DAI, mintWith, registerDai, Status } from "./factoryFixture.js";

const plain = () => deployProgram();

/**
 * USDC and DAI both registered, each vault holding 110 from alice's mints (220 SP), with
 * requests 1 (USDC, single asset) and 2 (made in forced basket mode) pending, 10 SP each.
 */
async function pending() {
  const p = await networkHelpers.loadFixture(plain);
  await registerDai(p);
  await mintWith(p, p.usdc, p.alice, USDC(110));
  await mintWith(p, p.dai, p.alice, DAI(110));
  await allowRedeemer(p, p.alice, SP(1000));
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(10), false);
  await p.factory.setBasketModeForced(true);
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(10), true);
  await p.factory.setBasketModeForced(false);
  return p;
}

/** Gives alice 10 USDC more, approved to the Factory. */
async function refund(p: Program) {
  await p.usdc.mint(p.alice, USDC(10));
  await p.usdc.connect(p.alice).approve(p.factory, USDC(10));
}

describe("Factory: a paused CollateralVault is named, never skipped", () => {
  it("mint_revertsWith_CollateralVaultPaused_beforePullingTheAsset", async () => {
    const p = await pending();
    await refund(p);
    await p.vault.pause();
    const usdcBefore = await p.usdc.balanceOf(p.alice);
    await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice))
      .to.be.revertedWithCustomError(p.factory, "CollateralVaultPaused")
      .withArgs(await p.vault.getAddress());
    expect(await p.usdc.balanceOf(p.alice)).to.equal(usdcBefore);
    await p.vault.unpause();
    await p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice);
    expect(await p.usdc.balanceOf(p.alice)).to.equal(usdcBefore - USDC(10));
  });

  it("mint_ofAnotherAsset_works_whileOneVaultIsPaused", async () => {
    const p = await pending();
    await p.vault.pause();
    await p.dai.mint(p.alice, DAI(10));
    await p.dai.connect(p.alice).approve(p.factory, DAI(10));
    const before = await p.points.balanceOf(p.alice);
    await p.factory.connect(p.alice).mint(p.dai, DAI(10), p.alice);
    expect(await p.points.balanceOf(p.alice)).to.equal(before + SP(10));
  });

  it("finalizeRedeem_singleAsset_revertsWith_CollateralVaultPaused_forExecutorAndRequester", async () => {
    const p = await pending();
    await p.vault.pause();
    for (const who of [p.executor, p.alice]) {
      await expect(p.factory.connect(who).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.factory, "CollateralVaultPaused")
        .withArgs(await p.vault.getAddress());
      if (who === p.executor) await networkHelpers.time.increase(24 * 3600);
    }
    expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Pending);
    expect(await p.points.balanceOf(p.factory)).to.equal(SP(20));
  });

  it("finalizeRedeem_basket_revertsWith_CollateralVaultPaused_insteadOfPayingFromTheOtherVaults", async () => {
    const p = await pending();
    await p.factory.setBasketModeForced(true);
    await p.daiVault.pause();
    const [usdcBefore, daiBefore] = [await p.usdc.balanceOf(p.alice), await p.dai.balanceOf(p.alice)];
    await expect(p.factory.connect(p.executor).finalizeRedeem(2))
      .to.be.revertedWithCustomError(p.factory, "CollateralVaultPaused")
      .withArgs(await p.daiVault.getAddress());
    expect(await p.usdc.balanceOf(p.alice)).to.equal(usdcBefore);
    expect(await p.dai.balanceOf(p.alice)).to.equal(daiBefore);
    expect((await p.factory.getRedeemRequest(2)).status).to.equal(Status.Pending);

    await p.daiVault.unpause();
    await expect(p.factory.connect(p.executor).finalizeRedeem(2))
      .to.emit(p.factory, "CollateralPaid")
      .withArgs(2n, await p.usdc.getAddress(), p.alice.address, USDC(5))
      .and.to.emit(p.factory, "CollateralPaid")
      .withArgs(2n, await p.dai.getAddress(), p.alice.address, DAI(5));
  });

  it("finalizeRedeem_singleAsset_ofAnUnpausedVault_works_whileAnotherVaultIsPaused", async () => {
    const p = await pending();
    await p.daiVault.pause();
    await expect(p.factory.connect(p.executor).finalizeRedeem(1))
      .to.emit(p.factory, "CollateralPaid")
      .withArgs(1n, await p.usdc.getAddress(), p.alice.address, USDC(10));
  });

  it("cancelRedeem_and_rejectRedeem_keepWorking_whileEveryVaultIsPaused", async () => {
    const p = await pending();
    await p.vault.pause();
    await p.daiVault.pause();
    const before = await p.points.balanceOf(p.alice);
    await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
    await expect(p.factory.connect(p.executor).rejectRedeem(2))
      .to.emit(p.factory, "RedeemRejected")
      .withArgs(2n, p.executor.address);
    expect(await p.points.balanceOf(p.alice)).to.equal(before + SP(20));
    expect(await p.points.balanceOf(p.factory)).to.equal(0n);
  });

  it("requestRedeem_keepsWorking_whileTheAskedAssetsVaultIsPaused", async () => {
    const p = await pending();
    await p.vault.pause();
    await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false))
      .to.emit(p.factory, "RedeemRequested")
      .withArgs(3n, p.alice.address, await p.usdc.getAddress(), p.alice.address, SP(1), false);
  });
});
