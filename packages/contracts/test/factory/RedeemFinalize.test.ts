import { expect } from "chai";
import {
  deployProgram,
  ethers,
  mintSp,
  networkHelpers,
  REDEEM_DELAY,
  ROLES,
  SP,
  USDC,
} from "../helpers/programFixture.js";
import { allowRedeemer, expectBacked, expectNotFound, expectNotPending, Status } from "./factoryFixture.js";

const fixture = () => deployProgram();
const unauthorized = "AccessControlUnauthorizedAccount";

/** alice holds 1,000 SP and has request 1 pending: 100 SP of USDC paid to bob. */
async function pending() {
  const p = await networkHelpers.loadFixture(fixture);
  await mintSp(p, p.alice, USDC(1000));
  await allowRedeemer(p, p.alice, SP(1000));
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(100), false);
  const readyAt = BigInt((await networkHelpers.time.latest()) + REDEEM_DELAY);
  return { p, readyAt };
}

describe("Factory: finalizing and rejecting redemptions", () => {
  describe("finalizeRedeem (EXECUTOR_ROLE any time, the requester after redeemDelay)", () => {
    it("finalizeRedeem_byExecutorAtOnce_burnsSp_paysCollateralToTo_andEmits", async () => {
      const { p } = await pending();
      const tx = p.factory.connect(p.executor).finalizeRedeem(1);
      await expect(tx)
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(1n, await p.usdc.getAddress(), p.bob.address, USDC(100));
      await expect(tx).to.emit(p.factory, "RedeemFinalized").withArgs(1n, p.executor.address, SP(100), 0, false);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(100));
      expect(await p.points.balanceOf(p.factory)).to.equal(0n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(900));
      expect(await p.points.totalSupply()).to.equal(SP(900));
      expect(await p.vault.totalAssets()).to.equal(USDC(900));
      expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Finalized);
      await expectBacked(p);
    });

    it("finalizeRedeem_byRequester_revertsBeforeTheDelay_andSucceedsExactlyAtReadyAt", async () => {
      const { p, readyAt } = await pending();
      await networkHelpers.time.setNextBlockTimestamp(readyAt - 1n);
      await expect(p.factory.connect(p.alice).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.factory, "RedeemDelayNotElapsed")
        .withArgs(1n, readyAt);
      await networkHelpers.time.setNextBlockTimestamp(readyAt);
      await expect(p.factory.connect(p.alice).finalizeRedeem(1))
        .to.emit(p.factory, "RedeemFinalized")
        .withArgs(1n, p.alice.address, SP(100), 0, false);
      expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(100));
      expect(await p.points.totalSupply()).to.equal(SP(900));
    });

    it("finalizeRedeem_usesTheDelayInForceAtRequest_soALaterZeroDelayDoesNotShortenIt", async () => {
      const { p, readyAt } = await pending();
      await p.factory.setRedeemDelay(0);
      expect(await p.factory.redeemReadyAt(1)).to.equal(readyAt);
      await expect(p.factory.connect(p.alice).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.factory, "RedeemDelayNotElapsed")
        .withArgs(1n, readyAt);
    });

    it("finalizeRedeem_revertsWhen_callerIsNeitherExecutorNorRequester_evenAfterTheDelay", async () => {
      const { p, readyAt } = await pending();
      await networkHelpers.time.increaseTo(readyAt + 1n);
      // bob is the payee, admin holds every admin role: neither may finalize someone else's request.
      for (const who of [p.bob, p.admin, p.outsider]) {
        await expect(p.factory.connect(who).finalizeRedeem(1))
          .to.be.revertedWithCustomError(p.factory, "NotRequester")
          .withArgs(1n, who.address);
      }
    });

    it("finalizeRedeem_6DecimalAsset_paysTheFlooredAmount_andBurnsAllSp", async () => {
      const { p } = await pending();
      const amount = 1_234_567_891_234_567_891n;
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.carol, amount, false);
      // 1.234567891234567891 SP is 1.234567 USDC; the 0.000000891234567891 stays as backing.
      await expect(p.factory.connect(p.executor).finalizeRedeem(2))
        .to.emit(p.factory, "CollateralPaid")
        .withArgs(2n, await p.usdc.getAddress(), p.carol.address, 1_234_567n);
      expect(await p.usdc.balanceOf(p.carol)).to.equal(1_234_567n);
      expect(await p.points.totalSupply()).to.equal(SP(1000) - amount);
      expect(await p.vault.totalAssets()).to.equal(USDC(1000) - 1_234_567n);
      await expectBacked(p);
    });

    it("finalizeRedeem_revertsWhen_payoutRoundsToZero_andTheRequestStaysCancellable", async () => {
      const { p } = await pending();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, 999_999_999_999n, false);
      await expect(p.factory.connect(p.executor).finalizeRedeem(2))
        .to.be.revertedWithCustomError(p.factory, "AmountTooSmall")
        .withArgs(999_999_999_999n);
      expect((await p.factory.getRedeemRequest(2)).status).to.equal(Status.Pending);
      await p.factory.connect(p.alice).cancelRedeem(2);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(900));
    });

    it("finalizeRedeem_revertsWhen_basketModeChangedSinceTheRequest_andRequesterCanCancel", async () => {
      const { p } = await pending();
      await p.factory.setBasketModeForced(true);
      await expect(p.factory.connect(p.executor).finalizeRedeem(1))
        .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
        .withArgs(true);
      await p.factory.connect(p.alice).cancelRedeem(1);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
      expect(await p.usdc.balanceOf(p.bob)).to.equal(0n);
    });

    it("finalizeRedeem_revertsWhen_notPending_orUnknown", async () => {
      const { p } = await pending();
      await p.factory.connect(p.executor).finalizeRedeem(1);
      await expectNotPending(p, p.factory.connect(p.executor).finalizeRedeem(1), 1n, Status.Finalized);
      await expectNotFound(p, p.factory.connect(p.executor).finalizeRedeem(2), 2n);
    });

    it("finalizeRedeem_revertsWhen_cancelled", async () => {
      const { p } = await pending();
      await p.factory.connect(p.alice).cancelRedeem(1);
      await expectNotPending(p, p.factory.connect(p.executor).finalizeRedeem(1), 1n, Status.Cancelled);
    });
  });

  describe("rejectRedeem (EXECUTOR_ROLE only)", () => {
    it("rejectRedeem_returnsSpToRequester_setsRejected_andEmits", async () => {
      const { p } = await pending();
      await expect(p.factory.connect(p.executor).rejectRedeem(1))
        .to.emit(p.factory, "RedeemRejected")
        .withArgs(1n, p.executor.address);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
      expect(await p.points.balanceOf(p.factory)).to.equal(0n);
      expect(await p.points.totalSupply()).to.equal(SP(1000));
      expect(await p.usdc.balanceOf(p.bob)).to.equal(0n);
      expect(await p.vault.totalAssets()).to.equal(USDC(1000));
      expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Rejected);
    });

    it("rejectRedeem_revertsWhen_callerLacksExecutorRole_evenAdminOrRequester", async () => {
      const { p } = await pending();
      for (const who of [p.admin, p.alice, p.bob, p.outsider]) {
        await expect(p.factory.connect(who).rejectRedeem(1))
          .to.be.revertedWithCustomError(p.factory, unauthorized)
          .withArgs(who.address, ROLES.EXECUTOR);
      }
    });

    it("rejectRedeem_revertsWhen_notPending_orUnknown", async () => {
      const { p } = await pending();
      await p.factory.connect(p.executor).rejectRedeem(1);
      await expectNotPending(p, p.factory.connect(p.executor).rejectRedeem(1), 1n, Status.Rejected);
      await expectNotPending(p, p.factory.connect(p.executor).finalizeRedeem(1), 1n, Status.Rejected);
      await expectNotFound(p, p.factory.connect(p.executor).rejectRedeem(5), 5n);
    });
  });

  describe("EXECUTOR_ROLE: the executor finalizes and rejects, nothing else", () => {
    it("executor_holdsOnlyExecutorRole_onEveryContract", async () => {
      const { p } = await pending();
      expect(await p.factory.hasRole(ROLES.EXECUTOR, p.executor)).to.equal(true);
      for (const c of [p.factory, p.points, p.psp, p.vault]) {
        for (const [name, role] of Object.entries(ROLES)) {
          if (c === p.factory && name === "EXECUTOR") continue;
          expect(await c.hasRole(role, p.executor), `${name} on ${await c.getAddress()}`).to.equal(false);
        }
      }
    });

    it("executor_cannotListForMint_registerAssets_pause_setFees_grantRoles_orUpgrade", async () => {
      const { p } = await pending();
      const f = p.factory.connect(p.executor);
      const v2 = await ethers.deployContract("FactoryV2Mock");
      // Thunks, so each call is sent only when its assertion runs.
      const refusals: [() => Promise<unknown>, string][] = [
        [() => f.addToMintWhitelist(p.executor), ROLES.MANAGER],
        [() => f.addToRedeemWhitelist(p.executor), ROLES.MANAGER],
        [() => f.registerAsset(p.dai, p.daiVault), ROLES.DEFAULT_ADMIN],
        [() => f.setBasketModeForced(true), ROLES.MANAGER],
        [() => f.pause(), ROLES.PAUSER],
        [() => f.setFees(0, 0), ROLES.DEFAULT_ADMIN],
        [() => f.grantRole(ROLES.MANAGER, p.executor), ROLES.DEFAULT_ADMIN],
        [() => f.upgradeToAndCall(v2, "0x"), ROLES.DEFAULT_ADMIN],
      ];
      for (const [send, role] of refusals) {
        await expect(send()).to.be.revertedWithCustomError(p.factory, unauthorized).withArgs(p.executor.address, role);
      }
      await expect(f.mint(p.usdc, USDC(1), p.executor))
        .to.be.revertedWithCustomError(p.factory, "NotMintWhitelisted")
        .withArgs(p.executor.address);
    });
  });
});
