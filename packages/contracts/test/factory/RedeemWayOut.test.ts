import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, REDEEM_DELAY, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, expectBacked, Status } from "./factoryFixture.js";

/** alice holds 1,000 SP and has request 1 pending (100 SP of USDC to bob) under a 0.5% redeem fee. */
async function pendingWithFee() {
  const p = await deployProgram({ redeemFeeBps: 50 });
  await mintSp(p, p.alice, USDC(1000));
  await allowRedeemer(p, p.alice, SP(1000));
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(100), false);
  const readyAt = BigInt((await networkHelpers.time.latest()) + REDEEM_DELAY);
  return { p, readyAt };
}

describe("Factory: a pending request keeps its terms and always has a way out", () => {
  it("finalizeRedeem_byRequester_succeedsAtItsOwnReadyAt_whenManagerRaisesTheDelayToTrapIt", async () => {
    const { p, readyAt } = await networkHelpers.loadFixture(pendingWithFee);
    await p.factory.setRedeemDelay(30 * 24 * 3600);
    await networkHelpers.time.increaseTo(readyAt);
    await expect(p.factory.connect(p.alice).finalizeRedeem(1)).to.emit(p.factory, "RedeemFinalized");
    expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Finalized);
  });

  it("finalizeRedeem_doesNotPayTheFeeToAnyoneElse_whenAdminDelistsTheFeeReceiver", async () => {
    const { p, readyAt } = await networkHelpers.loadFixture(pendingWithFee);
    const feeReceiver = await p.factory.feeReceiver();
    await p.points.removeFromTransferWhitelist(feeReceiver);
    await networkHelpers.time.increaseTo(readyAt);
    const before = await p.points.balanceOf(feeReceiver);
    await expect(p.factory.connect(p.alice).finalizeRedeem(1))
      .to.emit(p.factory, "RedeemFeeBurned")
      .withArgs(1n, feeReceiver, SP("0.5"));
    expect(await p.points.balanceOf(feeReceiver)).to.equal(before);
    expect(await p.points.balanceOf(p.factory)).to.equal(0n);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC("99.5"));
    await expectBacked(p);
  });

  it("finalizeRedeem_byADelistedRequester_succeedsAfterTheBasketModeChanged_sinceItCannotCancel", async () => {
    const { p, readyAt } = await networkHelpers.loadFixture(pendingWithFee);
    await p.points.removeFromTransferWhitelist(p.alice);
    await p.factory.setBasketModeForced(true);
    await expect(p.factory.connect(p.alice).cancelRedeem(1))
      .to.be.revertedWithCustomError(p.points, "TransferNotWhitelisted")
      .withArgs(p.alice.address);
    await networkHelpers.time.increaseTo(readyAt);
    // Paid to the `to` it named at request time, in the mode it finds; nobody else is paid.
    await expect(p.factory.connect(p.alice).finalizeRedeem(1))
      .to.emit(p.factory, "RedeemFinalized")
      .withArgs(1n, p.alice.address, SP("99.5"), SP("0.5"), true);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC("99.5"));
    await expectBacked(p);
  });

  it("finalizeRedeem_byTheExecutor_stillRevertsWith_UnexpectedBasketMode_forADelistedRequester", async () => {
    const { p } = await networkHelpers.loadFixture(pendingWithFee);
    await p.points.removeFromTransferWhitelist(p.alice);
    await p.factory.setBasketModeForced(true);
    await expect(p.factory.connect(p.executor).finalizeRedeem(1))
      .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
      .withArgs(true);
  });

  it("finalizeRedeem_byAListedRequester_stillRevertsWith_UnexpectedBasketMode_itCanCancelInstead", async () => {
    const { p, readyAt } = await networkHelpers.loadFixture(pendingWithFee);
    await p.factory.setBasketModeForced(true);
    await networkHelpers.time.increaseTo(readyAt);
    await expect(p.factory.connect(p.alice).finalizeRedeem(1))
      .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
      .withArgs(true);
    await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
    expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
  });

  it("redeemReadyAt_isCreationTime_forARequestMadeWithoutDelay_andRevertsForAnUnknownId", async () => {
    const { p } = await networkHelpers.loadFixture(pendingWithFee);
    await p.factory.setRedeemDelay(0);
    await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(1), false);
    expect(await p.factory.redeemReadyAt(2)).to.equal((await p.factory.getRedeemRequest(2)).createdAt);
    await expect(p.factory.redeemReadyAt(3))
      .to.be.revertedWithCustomError(p.factory, "RedeemRequestNotFound")
      .withArgs(3n);
  });
});
