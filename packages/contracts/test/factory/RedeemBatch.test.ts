import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, Status } from "./factoryFixture.js";

const fixture = () => deployProgram();

/** alice holds 1,000 SP and has requests 1..3 pending: 100, 200 and 300 SP of USDC paid to bob. */
async function threePending() {
  const p = await networkHelpers.loadFixture(fixture);
  await mintSp(p, p.alice, USDC(1000));
  await allowRedeemer(p, p.alice, SP(1000));
  for (const n of [100, 200, 300]) await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(n), false);
  return p;
}

describe("Factory: finalizeRedeemBatch (the redemption desk's batch, EXECUTOR_ROLE only)", () => {
  it("finalizeRedeemBatch_finalizesEveryRequestInOneTransaction_beforeTheDelay", async () => {
    const p = await threePending();
    const tx = p.factory.connect(p.executor).finalizeRedeemBatch([1n, 2n, 3n]);
    for (const [id, n] of [
      [1n, 100],
      [2n, 200],
      [3n, 300],
    ] as const) {
      await expect(tx).to.emit(p.factory, "RedeemFinalized").withArgs(id, p.executor.address, SP(n), 0, false);
      expect((await p.factory.getRedeemRequest(id)).status).to.equal(Status.Finalized);
    }
    await expect(tx).to.not.emit(p.factory, "RedeemFinalizeSkipped");
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(600));
    expect(await p.points.balanceOf(p.factory)).to.equal(0n);
    expect(await p.points.totalSupply()).to.equal(SP(400));
    expect(await p.vault.totalAssets()).to.equal(USDC(400));
  });

  it("finalizeRedeemBatch_skipsARequestThatCannotBeFinalized_withItsError_andFinalizesTheOthers", async () => {
    const p = await threePending();
    await p.factory.connect(p.alice).cancelRedeem(2n);
    const tx = p.factory.connect(p.executor).finalizeRedeemBatch([1n, 2n, 9n, 3n]);
    const notPending = p.factory.interface.encodeErrorResult("RedeemRequestNotPending", [2n, Status.Cancelled]);
    const notFound = p.factory.interface.encodeErrorResult("RedeemRequestNotFound", [9n]);
    await expect(tx).to.emit(p.factory, "RedeemFinalizeSkipped").withArgs(2n, notPending);
    await expect(tx).to.emit(p.factory, "RedeemFinalizeSkipped").withArgs(9n, notFound);
    expect((await p.factory.getRedeemRequest(1n)).status).to.equal(Status.Finalized);
    expect((await p.factory.getRedeemRequest(2n)).status).to.equal(Status.Cancelled);
    expect((await p.factory.getRedeemRequest(3n)).status).to.equal(Status.Finalized);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(400));
    expect(await p.points.balanceOf(p.alice)).to.equal(SP(600));
    expect(await p.points.totalSupply()).to.equal(SP(600));
  });

  it("finalizeRedeemBatch_revertsWhen_callerLacksExecutorRole_evenAdminManagerOrRequester", async () => {
    const p = await threePending();
    for (const who of [p.admin, p.alice, p.bob, p.outsider]) {
      await expect(p.factory.connect(who).finalizeRedeemBatch([1n]))
        .to.be.revertedWithCustomError(p.factory, "AccessControlUnauthorizedAccount")
        .withArgs(who.address, ROLES.EXECUTOR);
    }
    expect((await p.factory.getRedeemRequest(1n)).status).to.equal(Status.Pending);
  });

  it("finalizeRedeemBatch_revertsWith_EnforcedPause_whileTheFactoryIsPaused", async () => {
    const p = await threePending();
    await p.factory.connect(p.admin).pause();
    await expect(p.factory.connect(p.executor).finalizeRedeemBatch([1n])).to.be.revertedWithCustomError(
      p.factory,
      "EnforcedPause",
    );
    expect((await p.factory.getRedeemRequest(1n)).status).to.equal(Status.Pending);
  });

  it("finalizeRedeemBatch_ofNothing_changesNothing", async () => {
    const p = await threePending();
    await expect(p.factory.connect(p.executor).finalizeRedeemBatch([])).to.not.emit(p.factory, "RedeemFinalized");
    expect(await p.points.balanceOf(p.factory)).to.equal(SP(600));
  });
});
