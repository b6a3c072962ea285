import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  approveSpFirst,
  expectError,
  expectOk,
  expectRevert,
  increaseTime,
  setupE2E,
  SP,
  USDC,
  type E2E,
} from "./helpers/e2e.js";

// Chain-scoped redemption: create, cancel, finalize (path: chain, factory,
// asset) and the status read of a request (chain-scoped and on the default program).
describe("e2e: chain-scoped redemption routes and request status", () => {
  let e: E2E;
  let params: { chainId: string; factoryAddr: string; assetAddr: string };
  const DELAY = 3600;
  const REDEEM_FEE_BPS = 50;

  /** Builds route `name` for request `requestId` as `key`. */
  const onRequest = (
    name: "chainRedeemCancel" | "chainRedeemFinalize",
    requestId: string,
    key: string,
    asset?: string,
  ) =>
    e.call(name, { params: { ...params, assetAddr: asset ?? params.assetAddr }, body: { input: { requestId }, key } });
  const create = (key: string, input: { to: string; amount: string; expectedBasketMode: boolean }, p = params) =>
    e.call("chainRedeemCreate", { params: p, body: { input, key } });
  const status = (requestId: string) =>
    e.ok("chainRedeemStatus", {
      params: { chainId: "31337", factoryAddr: e.record.factory, requestId },
    });

  before(async () => {
    e = await setupE2E();
    const { brand, alice } = e.who;
    params = { chainId: "31337", factoryAddr: e.record.factory, assetAddr: e.usdc };
    await e.giveSp(alice.address, SP(100));
    await (await e.c.factory.connect(brand).addToRedeemWhitelist(alice.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(e.who.bob.address)).wait();
    // A redeem fee (receiver: the brand wallet, already on the transfer allowlist).
    await (await e.c.factory.connect(brand).setFees(0, REDEEM_FEE_BPS)).wait();
  });
  after(() => e?.stop());

  describe("POST .../redeem/create", () => {
    it("create_withoutSpAllowance_is422_offeringTheSpApprovalForTheFactory", async () => {
      const { alice, bob } = e.who;
      const res = await create(alice.address, {
        to: bob.address,
        amount: SP(20).toString(),
        expectedBasketMode: false,
      });
      await approveSpFirst(e, res, alice, e.record.factory, SP(20));
    });

    it("create_requestsRedeemOfThePathsAsset_echoesTheMode_andEscrowsTheSp", async () => {
      const { alice, bob } = e.who;
      const input = { to: bob.address, amount: SP(20).toString(), expectedBasketMode: false };
      const data = await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } });
      assert.equal(data.expectedBasketMode, false);
      assert.deepEqual(data.call, {
        contract: "factory",
        function: "requestRedeem",
        args: [e.usdc, bob.address, SP(20).toString(), false],
      });
      await e.send(alice, data);
      assert.equal(await e.c.points.balanceOf(alice.address), SP(80));
      assert.equal(await e.c.points.balanceOf(e.record.factory), SP(20));
    });

    it("create_expectingBasketModeWhileItIsOff_is422UnexpectedBasketMode", async () => {
      const { alice } = e.who;
      const res = await create(alice.address, { to: alice.address, amount: "1", expectedBasketMode: true });
      expectRevert(res, "factory", "UnexpectedBasketMode", { actual: false });
    });

    it("create_forAnAssetWithoutAVault_is422AssetNotRegistered", async () => {
      const { alice, outsider } = e.who;
      const input = { to: alice.address, amount: "1", expectedBasketMode: false };
      const res = await create(alice.address, input, { ...params, assetAddr: outsider.address });
      expectRevert(res, "factory", "AssetNotRegistered", { asset: outsider.address });
    });

    it("create_onAChainTheServerDoesNotKnow_is400", async () => {
      const { alice } = e.who;
      const input = { to: alice.address, amount: "1", expectedBasketMode: false };
      expectError(await create(alice.address, input, { ...params, chainId: "1" }), 400, "INVALID_INPUT");
    });

    it("create_onAFactoryTheServerDoesNotKnow_is404", async () => {
      const { alice, outsider } = e.who;
      const input = { to: alice.address, amount: "1", expectedBasketMode: false };
      expectError(await create(alice.address, input, { ...params, factoryAddr: outsider.address }), 404, "NOT_FOUND");
    });
  });

  describe("GET status (chain-scoped and on the default program)", () => {
    it("status_showsEveryFieldOfAPendingRequest_exactly_onBothRoutes", async () => {
      const { alice, bob } = e.who;
      const createdAt = (await e.c.factory.getRedeemRequest(1n)).createdAt;
      const expected = {
        requestId: "1",
        requester: alice.address,
        asset: e.usdc,
        to: bob.address,
        amount: SP(20).toString(),
        expectedBasketMode: false,
        redeemFeeBps: REDEEM_FEE_BPS,
        createdAt: Number(createdAt),
        readyAt: Number(createdAt) + DELAY,
        status: "Pending",
      };
      assert.deepEqual(await status("1"), expected);
      assert.deepEqual(await e.ok("readRedeemRequest", { params: { requestId: "1" } }), expected);
    });

    it("status_keepsTheFeeInForceWhenTheRequestWasMade_afterAFeeRaise", async () => {
      const { brand } = e.who;
      await (await e.c.factory.connect(brand).setFees(0, 100)).wait();
      try {
        assert.equal((await status("1")).redeemFeeBps, REDEEM_FEE_BPS);
      } finally {
        await (await e.c.factory.connect(brand).setFees(0, REDEEM_FEE_BPS)).wait();
      }
    });

    it("status_keepsTheDelayInForceWhenTheRequestWasMade_afterADelayChange", async () => {
      const { brand } = e.who;
      const { createdAt } = await status("1");
      await (await e.c.factory.connect(brand).setRedeemDelay(1)).wait();
      try {
        assert.equal((await status("1")).readyAt, createdAt + DELAY);
      } finally {
        await (await e.c.factory.connect(brand).setRedeemDelay(DELAY)).wait();
      }
    });

    it("status_ofAnUnknownRequest_is404_onBothRoutes", async () => {
      const chainRes = await e.call("chainRedeemStatus", {
        params: { chainId: "31337", factoryAddr: e.record.factory, requestId: "77" },
      });
      const d = expectError(chainRes, 404, "NOT_FOUND");
      assert.deepEqual({ name: d.name, args: d.args }, { name: "RedeemRequestNotFound", args: { requestId: "77" } });
      expectError(await e.call("readRedeemRequest", { params: { requestId: "77" } }), 404, "NOT_FOUND");
    });
  });

  describe("POST .../redeem/cancel", () => {
    before(async () => {
      // Request 2: alice, 5 SP to herself.
      const { alice } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(5))).wait();
      const input = { to: alice.address, amount: SP(5).toString(), expectedBasketMode: false };
      await e.send(alice, await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } }));
    });

    it("cancel_withAnotherAssetInThePathThanTheRequests_is400", async () => {
      const { alice, outsider } = e.who;
      expectError(await onRequest("chainRedeemCancel", "2", alice.address, outsider.address), 400, "INVALID_INPUT");
    });

    it("cancel_byAnAccountOtherThanTheRequester_is422NotRequester", async () => {
      const { executor } = e.who;
      const res = await onRequest("chainRedeemCancel", "2", executor.address);
      expectRevert(res, "factory", "NotRequester", { requestId: "2", caller: executor.address });
    });

    it("cancel_ofAnUnknownRequest_is404", async () => {
      expectError(await onRequest("chainRedeemCancel", "77", e.who.alice.address), 404, "NOT_FOUND");
    });

    it("cancel_byTheRequester_returnsTheSp_andTheStatusBecomesCancelled", async () => {
      const { alice } = e.who;
      const data = expectOk("chainRedeemCancel", await onRequest("chainRedeemCancel", "2", alice.address));
      assert.deepEqual(data.call, { contract: "factory", function: "cancelRedeem", args: ["2"] });
      await e.send(alice, data);
      assert.equal(await e.c.points.balanceOf(alice.address), SP(80));
      assert.equal(await e.c.points.balanceOf(e.record.factory), SP(20));
      assert.equal((await status("2")).status, "Cancelled");
    });

    it("cancel_ofACancelledRequest_is422RedeemRequestNotPending", async () => {
      const res = await onRequest("chainRedeemCancel", "2", e.who.alice.address);
      expectRevert(res, "factory", "RedeemRequestNotPending", { requestId: "2", status: "3" });
    });
  });

  describe("POST .../redeem/finalize", () => {
    it("finalize_withAnotherAssetInThePathThanTheRequests_is400", async () => {
      const { executor, outsider } = e.who;
      const res = await onRequest("chainRedeemFinalize", "1", executor.address, outsider.address);
      expectError(res, 400, "INVALID_INPUT");
    });

    it("finalize_byTheRequesterBeforeTheDelay_is422RedeemDelayNotElapsed_atReadyAt", async () => {
      const { alice } = e.who;
      const { readyAt } = await status("1");
      const res = await onRequest("chainRedeemFinalize", "1", alice.address);
      expectRevert(res, "factory", "RedeemDelayNotElapsed", { requestId: "1", readyAt: String(readyAt) });
    });

    it("finalize_byNeitherExecutorNorRequester_is422NotRequester", async () => {
      const { outsider } = e.who;
      const res = await onRequest("chainRedeemFinalize", "1", outsider.address);
      expectRevert(res, "factory", "NotRequester", { requestId: "1", caller: outsider.address });
    });

    it("finalize_byTheExecutorBeforeTheDelay_paysNetOfTheRequestsFee_andStatusBecomesFinalized", async () => {
      const { executor, brand, bob } = e.who;
      const [supply, brandSp] = [await e.c.points.totalSupply(), await e.c.points.balanceOf(brand.address)];
      const fee = (SP(20) * BigInt(REDEEM_FEE_BPS)) / 10_000n;
      const data = expectOk("chainRedeemFinalize", await onRequest("chainRedeemFinalize", "1", executor.address));
      assert.deepEqual(data.call, { contract: "factory", function: "finalizeRedeem", args: ["1"] });
      await e.send(executor, data);
      assert.equal((await status("1")).status, "Finalized");
      assert.equal(await e.c.usdc.balanceOf(bob.address), (SP(20) - fee) / 10n ** 12n);
      assert.equal(await e.c.points.balanceOf(brand.address), brandSp + fee);
      assert.equal(await e.c.points.totalSupply(), supply - (SP(20) - fee));
      assert.equal(await e.c.points.balanceOf(e.record.factory), 0n);
    });

    it("finalize_byTheRequesterAfterTheDelay_lands", async () => {
      const { alice } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(10))).wait();
      const input = { to: alice.address, amount: SP(10).toString(), expectedBasketMode: false };
      await e.send(alice, await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } }));
      await increaseTime(e, DELAY);
      const before = await e.c.usdc.balanceOf(alice.address);
      await e.send(alice, expectOk("chainRedeemFinalize", await onRequest("chainRedeemFinalize", "3", alice.address)));
      assert.equal((await status("3")).status, "Finalized");
      assert.equal(await e.c.usdc.balanceOf(alice.address), before + USDC(10) - USDC(10) / 200n);
    });

    it("status_ofARequestTheExecutorRejected_isRejected", async () => {
      const { alice, executor } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(1))).wait();
      const input = { to: alice.address, amount: SP(1).toString(), expectedBasketMode: false };
      await e.send(alice, await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } }));
      // No route rejects (the executor does it directly); the read must still name the state.
      await (await e.c.factory.connect(executor).rejectRedeem(4n)).wait();
      assert.equal((await e.ok("readRedeemRequest", { params: { requestId: "4" } })).status, "Rejected");
    });

    it("finalize_whenTheFeeReceiverWasDelisted_burnsTheFee_andPaysNobodyElse", async () => {
      const { alice, brand, executor } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(10))).wait();
      const input = { to: alice.address, amount: SP(10).toString(), expectedBasketMode: false };
      await e.send(alice, await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } }));
      // The fee receiver (the brand wallet) leaves the transfer allowlist while request 5 waits.
      await (await e.c.points.connect(brand).removeFromTransferWhitelist(brand.address)).wait();
      try {
        const [supply, brandSp, usdc] = [
          await e.c.points.totalSupply(),
          await e.c.points.balanceOf(brand.address),
          await e.c.usdc.balanceOf(alice.address),
        ];
        await e.send(
          executor,
          expectOk("chainRedeemFinalize", await onRequest("chainRedeemFinalize", "5", executor.address)),
        );
        assert.equal((await status("5")).status, "Finalized");
        assert.equal(await e.c.points.balanceOf(brand.address), brandSp);
        assert.equal(await e.c.points.totalSupply(), supply - SP(10));
        assert.equal(await e.c.points.balanceOf(e.record.factory), 0n);
        assert.equal(await e.c.usdc.balanceOf(alice.address), usdc + USDC(10) - USDC(10) / 200n);
      } finally {
        await (await e.c.points.connect(brand).addToTransferWhitelist(brand.address)).wait();
      }
    });

    it("finalize_byADelistedRequesterAfterTheBasketModeChanged_lands_sinceItCannotCancel", async () => {
      const { alice, brand } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(10))).wait();
      const input = { to: alice.address, amount: SP(10).toString(), expectedBasketMode: false };
      await e.send(alice, await e.ok("chainRedeemCreate", { params, body: { input, key: alice.address } }));
      await (await e.c.points.connect(brand).removeFromTransferWhitelist(alice.address)).wait();
      await (await e.c.factory.connect(brand).setBasketModeForced(true)).wait();
      try {
        expectRevert(await onRequest("chainRedeemCancel", "6", alice.address), "points", "TransferNotWhitelisted", {
          account: alice.address,
        });
        await increaseTime(e, DELAY);
        const before = await e.c.usdc.balanceOf(alice.address);
        await e.send(
          alice,
          expectOk("chainRedeemFinalize", await onRequest("chainRedeemFinalize", "6", alice.address)),
        );
        assert.equal((await status("6")).status, "Finalized");
        assert.equal(await e.c.usdc.balanceOf(alice.address), before + USDC(10) - USDC(10) / 200n);
      } finally {
        await (await e.c.factory.connect(brand).setBasketModeForced(false)).wait();
        await (await e.c.points.connect(brand).addToTransferWhitelist(alice.address)).wait();
      }
    });
  });
});
