import { expect } from "chai";
import { deployProgram, ethers, mintSp, networkHelpers, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, expectNotFound, expectNotPending, requestIdOf, Status } from "./factoryFixture.js";

const fixture = () => deployProgram();

/** alice holds 1,000 SP, is on the redeem allowlist and approved the Factory for all of it. */
async function ready() {
  const p = await networkHelpers.loadFixture(fixture);
  await mintSp(p, p.alice, USDC(1000));
  await allowRedeemer(p, p.alice, SP(1000));
  return p;
}

describe("Factory: redemption requests (create, cancel, read status)", () => {
  describe("requestRedeem", () => {
    it("requestRedeem_escrowsSp_emitsRedeemRequested_andRecordsTheRequest", async () => {
      const p = await ready();
      const amount = SP("12.5");
      expect(await p.factory.connect(p.alice).requestRedeem.staticCall(p.usdc, p.bob, amount, false)).to.equal(1n);
      const tx = p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, amount, false);
      await expect(tx)
        .to.emit(p.factory, "RedeemRequested")
        .withArgs(1n, p.alice.address, await p.usdc.getAddress(), p.bob.address, amount, false);
      const createdAt = await networkHelpers.time.latest();
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000) - amount);
      expect(await p.points.balanceOf(p.factory)).to.equal(amount);
      expect(await p.points.totalSupply()).to.equal(SP(1000)); // escrowed, not burned yet
      expect(await p.points.allowance(p.alice, p.factory)).to.equal(SP(1000) - amount);
      expect(await p.vault.totalAssets()).to.equal(USDC(1000));
      expect(await p.factory.redeemRequestCount()).to.equal(1n);

      const r = await p.factory.getRedeemRequest(1);
      expect(r.requester).to.equal(p.alice.address);
      expect(r.createdAt).to.equal(BigInt(createdAt));
      expect(r.status).to.equal(Status.Pending);
      expect(r.expectedBasketMode).to.equal(false);
      expect(r.asset).to.equal(await p.usdc.getAddress());
      expect(r.to).to.equal(p.bob.address);
      expect(r.amount).to.equal(amount);
      expect(r.redeemFeeBps).to.equal(0n);
    });

    it("requestRedeem_returnsSequentialIds_acrossRequesters", async () => {
      const p = await ready();
      await mintSp(p, p.carol, USDC(10));
      await allowRedeemer(p, p.carol, SP(10));
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false);
      expect(await p.factory.connect(p.carol).requestRedeem.staticCall(p.usdc, p.carol, SP(1), false)).to.equal(2n);
      expect(await requestIdOf(p.factory.connect(p.carol).requestRedeem(p.usdc, p.carol, SP(1), false), p)).to.equal(
        2n,
      );
      expect(await requestIdOf(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false), p)).to.equal(
        3n,
      );
      expect(await p.factory.redeemRequestCount()).to.equal(3n);
      expect((await p.factory.getRedeemRequest(2)).requester).to.equal(p.carol.address);
    });

    it("requestRedeem_revertsWhen_callerNotOnRedeemWhitelist", async () => {
      const p = await ready();
      await mintSp(p, p.bob, USDC(1));
      await p.points.connect(p.bob).approve(p.factory, SP(1));
      for (const who of [p.bob, p.executor, p.admin, p.outsider]) {
        await expect(p.factory.connect(who).requestRedeem(p.usdc, who, SP(1), false))
          .to.be.revertedWithCustomError(p.factory, "NotRedeemWhitelisted")
          .withArgs(who.address);
      }
      // The mint allowlist does not open redemption (bob is on it via mintSp).
      expect(await p.factory.isMintWhitelisted(p.bob)).to.equal(true);
    });

    it("requestRedeem_revertsWhen_amountIsZero", async () => {
      const p = await ready();
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, 0, false)).to.be.revertedWithCustomError(
        p.factory,
        "ZeroAmount",
      );
    });

    it("requestRedeem_revertsWhen_toIsZero", async () => {
      const p = await ready();
      await expect(
        p.factory.connect(p.alice).requestRedeem(p.usdc, ethers.ZeroAddress, SP(1), false),
      ).to.be.revertedWithCustomError(p.factory, "ZeroAddress");
    });

    it("requestRedeem_revertsWhen_assetNotRegistered", async () => {
      const p = await ready();
      await expect(p.factory.connect(p.alice).requestRedeem(p.dai, p.alice, SP(1), false))
        .to.be.revertedWithCustomError(p.factory, "AssetNotRegistered")
        .withArgs(await p.dai.getAddress());
    });

    it("requestRedeem_revertsWith_UnexpectedBasketMode_whenTheExpectedModeDiffers", async () => {
      const p = await ready();
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), true))
        .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
        .withArgs(false);
      await p.factory.setBasketModeForced(true);
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false))
        .to.be.revertedWithCustomError(p.factory, "UnexpectedBasketMode")
        .withArgs(true);
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), true))
        .to.emit(p.factory, "RedeemRequested")
        .withArgs(1n, p.alice.address, await p.usdc.getAddress(), p.alice.address, SP(1), true);
    });

    it("requestRedeem_revertsWhen_spAllowanceIsShort", async () => {
      const p = await ready();
      await p.points.connect(p.alice).approve(p.factory, SP(1) - 1n);
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientAllowance")
        .withArgs(await p.factory.getAddress(), SP(1) - 1n, SP(1));
    });

    it("requestRedeem_revertsWhen_spBalanceIsShort", async () => {
      const p = await ready();
      await p.points.connect(p.alice).approve(p.factory, SP(1001));
      await expect(p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1001), false))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientBalance")
        .withArgs(p.alice.address, SP(1000), SP(1001));
    });
  });

  describe("getRedeemRequest", () => {
    it("getRedeemRequest_revertsWhen_idUnknown", async () => {
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false);
      for (const id of [0n, 2n, 99n]) {
        await expectNotFound(p, p.factory.getRedeemRequest(id), id);
      }
    });
  });

  describe("cancelRedeem (the requester only, while Pending)", () => {
    it("cancelRedeem_returnsSp_setsCancelled_andEmits", async () => {
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(40), false);
      await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
      expect(await p.points.balanceOf(p.factory)).to.equal(0n);
      expect(await p.points.totalSupply()).to.equal(SP(1000));
      expect(await p.usdc.balanceOf(p.bob)).to.equal(0n);
      const r = await p.factory.getRedeemRequest(1);
      expect([r.status, r.amount, r.requester]).to.deep.equal([Status.Cancelled, SP(40), p.alice.address]);
    });

    it("cancelRedeem_revertsWhen_callerIsNotTheRequester_evenTheExecutorOrAdmin", async () => {
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(40), false);
      for (const who of [p.bob, p.executor, p.admin, p.outsider]) {
        await expect(p.factory.connect(who).cancelRedeem(1))
          .to.be.revertedWithCustomError(p.factory, "NotRequester")
          .withArgs(1n, who.address);
      }
    });

    it("cancelRedeem_revertsWhen_alreadyCancelled", async () => {
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(40), false);
      await p.factory.connect(p.alice).cancelRedeem(1);
      await expectNotPending(p, p.factory.connect(p.alice).cancelRedeem(1), 1n, Status.Cancelled);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
    });

    it("cancelRedeem_revertsWhen_finalizedOrRejected", async () => {
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false);
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(1), false);
      await p.factory.connect(p.executor).finalizeRedeem(1);
      await p.factory.connect(p.executor).rejectRedeem(2);
      await expectNotPending(p, p.factory.connect(p.alice).cancelRedeem(1), 1n, Status.Finalized);
      await expectNotPending(p, p.factory.connect(p.alice).cancelRedeem(2), 2n, Status.Rejected);
    });

    it("cancelRedeem_revertsWhen_idUnknown", async () => {
      const p = await ready();
      await expectNotFound(p, p.factory.connect(p.alice).cancelRedeem(7), 7n);
    });

    it("cancelRedeem_worksAfterRequesterLeftTheRedeemAllowlist", async () => {
      // Users can always get escrowed SP back; the allowlist gates new requests only.
      const p = await ready();
      await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(5), false);
      await p.factory.removeFromRedeemWhitelist(p.alice);
      await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(1000));
    });
  });
});
