import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, REDEEM_DELAY, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, fund, Status } from "./factoryFixture.js";

const fixture = () => deployProgram();
const unauthorized = "AccessControlUnauthorizedAccount";

/**
 * alice holds 1,000 SP with requests 1 and 2 (10 SP each) pending and 100 USDC left to mint;
 * then the admin (a PAUSER_ROLE holder) pauses the Factory.
 */
async function paused() {
  const p = await networkHelpers.loadFixture(fixture);
  await mintSp(p, p.alice, USDC(1000));
  await fund(p, p.usdc, p.alice, USDC(100));
  await allowRedeemer(p, p.alice, SP(1000));
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(10), false);
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(10), false);
  await expect(p.factory.pause()).to.emit(p.factory, "Paused").withArgs(p.admin.address);
  return p;
}

describe("Factory: pause (blocks mint, requestRedeem, finalizeRedeem)", () => {
  describe("who pauses and unpauses", () => {
    it("pause_byPauser_setsPaused", async () => {
      const p = await paused();
      expect(await p.factory.paused()).to.equal(true);
    });

    it("pause_revertsWhen_callerLacksPauserRole", async () => {
      const p = await networkHelpers.loadFixture(fixture);
      for (const who of [p.executor, p.alice, p.outsider]) {
        await expect(p.factory.connect(who).pause())
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.PAUSER);
      }
    });

    it("unpause_byDefaultAdminOnly_notByAPauserOrTheExecutor", async () => {
      const p = await paused();
      await p.factory.grantRole(ROLES.PAUSER, p.dave);
      for (const who of [p.dave, p.executor, p.alice]) {
        await expect(p.factory.connect(who).unpause())
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.DEFAULT_ADMIN);
      }
      await expect(p.factory.unpause()).to.emit(p.factory, "Unpaused").withArgs(p.admin.address);
      expect(await p.factory.paused()).to.equal(false);
    });
  });

  describe("blocked while paused", () => {
    it("mint_revertsWhen_paused_andWorksAfterUnpause", async () => {
      const p = await paused();
      await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(100), p.alice)).to.be.revertedWithCustomError(
        p.factory,
        "EnforcedPause",
      );
      await p.factory.unpause();
      await p.factory.connect(p.alice).mint(p.usdc, USDC(100), p.alice);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1080));
    });

    it("requestRedeem_revertsWhen_paused", async () => {
      const p = await paused();
      await expect(
        p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false),
      ).to.be.revertedWithCustomError(p.factory, "EnforcedPause");
      expect(await p.factory.redeemRequestCount()).to.equal(2n);
    });

    it("finalizeRedeem_revertsWhen_paused_forExecutorAndRequester", async () => {
      const p = await paused();
      await expect(p.factory.connect(p.executor).finalizeRedeem(1)).to.be.revertedWithCustomError(
        p.factory,
        "EnforcedPause",
      );
      await networkHelpers.time.increase(REDEEM_DELAY);
      await expect(p.factory.connect(p.alice).finalizeRedeem(1)).to.be.revertedWithCustomError(
        p.factory,
        "EnforcedPause",
      );
      expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Pending);
    });
  });

  describe("still open while paused, so users can get their SP back", () => {
    it("cancelRedeem_worksWhilePaused", async () => {
      const p = await paused();
      await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(990));
      expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Cancelled);
    });

    it("rejectRedeem_worksWhilePaused", async () => {
      const p = await paused();
      await expect(p.factory.connect(p.executor).rejectRedeem(2))
        .to.emit(p.factory, "RedeemRejected")
        .withArgs(2n, p.executor.address);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(990));
      expect((await p.factory.getRedeemRequest(2)).status).to.equal(Status.Rejected);
    });

    it("configuration_worksWhilePaused", async () => {
      // Pause stops value moving, not the operator fixing what made them pause.
      const p = await paused();
      await expect(p.factory.addToMintWhitelist(p.bob)).to.emit(p.factory, "MintWhitelistUpdated");
      await expect(p.factory.setBasketModeForced(true)).to.emit(p.factory, "BasketModeForced");
      await expect(p.factory.setRedeemDelay(0)).to.emit(p.factory, "RedeemDelayUpdated");
    });
  });
});
