import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Transaction, concat, decodeRlp, encodeRlp, hexlify, toBeArray } from "ethers";
import {
  approveSpFirst,
  setupE2E,
  expectPrerequisite,
  expectRevert,
  increaseTime,
  SP,
  USDC,
  type E2E,
} from "./helpers/e2e.js";

// The four generic build routes, built over HTTP, signed by the test wallet
// named in `key`, broadcast, and read back from the chain.
describe("e2e: build routes, signed and broadcast", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E();
    const { brand, alice, bob } = e.who;
    const f = e.c.factory.connect(brand);
    const p = e.c.points.connect(brand);
    // alice may mint and redeem and hold SP; bob may hold SP; outsider and carol nothing.
    for (const send of [
      () => f.addToMintWhitelist(alice.address),
      () => f.addToRedeemWhitelist(alice.address),
      () => p.addToTransferWhitelist(alice.address),
      () => p.addToTransferWhitelist(bob.address),
    ])
      await (await send()).wait();
    await (await e.c.usdc.connect(alice).mint(alice.address, USDC(1_000))).wait();
  });
  after(() => e?.stop());

  describe("POST /api/v1/build/mint", () => {
    it("mint_withoutAllowance_is422_offeringTheApproval_thenBuildsAndLands_receiverDefaultingToKey", async () => {
      const { alice } = e.who;
      const input = { asset: e.usdc, amount: USDC(100).toString() };
      const refused = await e.call("buildMint", { body: { input, key: alice.address } });
      const approval = expectPrerequisite(refused, {
        contract: "asset",
        token: e.usdc,
        owner: alice.address,
        spender: e.record.factory,
        allowance: 0n,
        needed: USDC(100),
      });
      await e.send(alice, approval);
      assert.equal(await e.c.usdc.allowance(alice.address, e.record.factory), USDC(100));

      const data = await e.ok("buildMint", { body: { input, key: alice.address } });
      assert.equal(data.to, e.record.factory);
      assert.deepEqual(data.call, {
        contract: "factory",
        function: "mint",
        args: [e.usdc, USDC(100).toString(), alice.address],
      });
      await e.send(alice, data);
      assert.equal(await e.c.points.balanceOf(alice.address), SP(100));
      assert.equal(await e.c.points.totalSupply(), SP(100));
      assert.equal(await e.c.usdc.balanceOf(alice.address), USDC(900));
      assert.equal(await e.c.usdc.balanceOf(e.record.collateralVault), USDC(100));
    });

    it("mint_toAnExplicitReceiver_creditsTheReceiverNotTheKey", async () => {
      const { alice, bob } = e.who;
      await (await e.c.usdc.connect(alice).approve(e.record.factory, USDC(5))).wait();
      const input = { asset: e.usdc, amount: USDC(5).toString(), receiver: bob.address };
      await e.send(alice, await e.ok("buildMint", { body: { input, key: alice.address } }));
      assert.equal(await e.c.points.balanceOf(bob.address), SP(5));
      assert.equal(await e.c.points.balanceOf(alice.address), SP(100));
    });

    it("mint_aboveTheKeysAssetBalance_is422ERC20InsufficientBalance_ofTheAsset", async () => {
      const { alice } = e.who;
      const balance = await e.c.usdc.balanceOf(alice.address);
      await (await e.c.usdc.connect(alice).approve(e.record.factory, balance + 1n)).wait();
      const input = { asset: e.usdc, amount: (balance + 1n).toString() };
      const res = await e.call("buildMint", { body: { input, key: alice.address } });
      expectRevert(res, "asset", "ERC20InsufficientBalance", {
        sender: alice.address,
        balance: balance.toString(),
        needed: (balance + 1n).toString(),
      });
    });

    it("mint_byAnAccountNotOnTheMintAllowlist_is422NotMintWhitelisted", async () => {
      const { carol } = e.who;
      await (await e.c.usdc.connect(carol).mint(carol.address, USDC(1))).wait();
      await (await e.c.usdc.connect(carol).approve(e.record.factory, USDC(1))).wait();
      const input = { asset: e.usdc, amount: USDC(1).toString() };
      const res = await e.call("buildMint", { body: { input, key: carol.address } });
      expectRevert(res, "factory", "NotMintWhitelisted", { account: carol.address });
    });

    it("mint_toAReceiverNotOnTheTransferAllowlist_is422TransferNotWhitelisted", async () => {
      const { alice, outsider } = e.who;
      await (await e.c.usdc.connect(alice).approve(e.record.factory, USDC(1))).wait();
      const input = { asset: e.usdc, amount: USDC(1).toString(), receiver: outsider.address };
      const res = await e.call("buildMint", { body: { input, key: alice.address } });
      expectRevert(res, "points", "TransferNotWhitelisted", { account: outsider.address });
    });

    it("mint_ofAnUnregisteredAsset_is422AssetNotRegistered_notAnApprovalRequest", async () => {
      const { alice, outsider } = e.who;
      // Not even a token: the simulation refuses it before any allowance matters.
      const input = { asset: outsider.address, amount: "1" };
      const res = await e.call("buildMint", { body: { input, key: alice.address } });
      expectRevert(res, "factory", "AssetNotRegistered", { asset: outsider.address });
    });

    it("mint_byAnUnlistedAccountWithoutAllowance_isRefusedForTheAllowlist_notAskedToApprove", async () => {
      const { outsider } = e.who;
      const input = { asset: e.usdc, amount: USDC(1).toString() };
      const res = await e.call("buildMint", { body: { input, key: outsider.address } });
      const d = expectRevert(res, "factory", "NotMintWhitelisted", { account: outsider.address });
      assert.equal(d.prerequisite, undefined);
    });
  });

  describe("POST /api/v1/build/redeem", () => {
    it("redeem_withoutSpAllowance_is422_offeringTheSpApproval", async () => {
      const { alice } = e.who;
      const input = { asset: e.usdc, amount: SP(40).toString() };
      const res = await e.call("buildRedeem", { body: { input, key: alice.address } });
      await approveSpFirst(e, res, alice, e.record.factory, SP(40));
      assert.equal(await e.c.points.allowance(alice.address, e.record.factory), SP(40));
    });

    it("redeem_defaultsExpectedBasketModeToTheChainsMode_echoesIt_andEscrowsTheSp", async () => {
      const { alice, bob } = e.who;
      const input = { asset: e.usdc, amount: SP(40).toString(), to: bob.address };
      const data = await e.ok("buildRedeem", { body: { input, key: alice.address } });
      assert.equal(data.expectedBasketMode, false);
      assert.deepEqual(data.call.args, [e.usdc, bob.address, SP(40).toString(), false]);
      await e.send(alice, data);
      const r = await e.c.factory.getRedeemRequest(1n);
      assert.deepEqual(
        [r.requester, r.asset, r.to, r.amount, r.expectedBasketMode, r.status],
        [alice.address, e.usdc, bob.address, SP(40), false, 1n],
      );
      assert.equal(await e.c.points.balanceOf(alice.address), SP(60));
      assert.equal(await e.c.points.balanceOf(e.record.factory), SP(40));
    });

    it("redeem_toDefaultsToKey_andInForcedBasketModeTheDefaultModeIsTrue", async () => {
      const { brand, alice } = e.who;
      await (await e.c.factory.connect(brand).setBasketModeForced(true)).wait();
      try {
        await (await e.c.points.connect(alice).approve(e.record.factory, SP(1))).wait();
        const input = { asset: e.usdc, amount: SP(1).toString() };
        const data = await e.ok("buildRedeem", { body: { input, key: alice.address } });
        assert.equal(data.expectedBasketMode, true);
        assert.deepEqual(data.call.args, [e.usdc, alice.address, SP(1).toString(), true]);
      } finally {
        await (await e.c.factory.connect(brand).setBasketModeForced(false)).wait();
      }
    });

    it("redeem_expectingTheOtherBasketMode_is422UnexpectedBasketMode", async () => {
      const { alice } = e.who;
      const input = { asset: e.usdc, amount: SP(1).toString(), expectedBasketMode: true };
      const res = await e.call("buildRedeem", { body: { input, key: alice.address } });
      expectRevert(res, "factory", "UnexpectedBasketMode", { actual: false });
    });

    it("redeem_aboveTheKeysSpBalance_is422ERC20InsufficientBalance_ofPoints", async () => {
      const { alice } = e.who;
      const balance = await e.c.points.balanceOf(alice.address);
      await (await e.c.points.connect(alice).approve(e.record.factory, balance + 1n)).wait();
      const input = { asset: e.usdc, amount: (balance + 1n).toString() };
      const res = await e.call("buildRedeem", { body: { input, key: alice.address } });
      expectRevert(res, "points", "ERC20InsufficientBalance", {
        sender: alice.address,
        balance: balance.toString(),
        needed: (balance + 1n).toString(),
      });
      await (await e.c.points.connect(alice).approve(e.record.factory, 0n)).wait();
    });

    it("redeem_byAnAccountNotOnTheRedeemAllowlist_is422NotRedeemWhitelisted", async () => {
      const { bob } = e.who;
      await (await e.c.points.connect(bob).approve(e.record.factory, SP(1))).wait();
      const input = { asset: e.usdc, amount: SP(1).toString() };
      const res = await e.call("buildRedeem", { body: { input, key: bob.address } });
      expectRevert(res, "factory", "NotRedeemWhitelisted", { account: bob.address });
    });
  });

  describe("POST /api/v1/build/finalize-redeem", () => {
    let second: bigint;
    before(async () => {
      // Request 2: alice redeems 10 SP to herself; request 1 (40 SP to bob) is pending.
      const { alice } = e.who;
      await (await e.c.points.connect(alice).approve(e.record.factory, SP(10))).wait();
      const input = { asset: e.usdc, amount: SP(10).toString() };
      await e.send(alice, await e.ok("buildRedeem", { body: { input, key: alice.address } }));
      second = await e.c.factory.redeemRequestCount();
      assert.equal(second, 2n);
    });

    it("finalizeRedeem_byTheRequesterBeforeTheDelay_is422RedeemDelayNotElapsed_withReadyAt", async () => {
      const { alice } = e.who;
      const r = await e.c.factory.getRedeemRequest(1n);
      const res = await e.call("buildFinalizeRedeem", { body: { input: { requestId: "1" }, key: alice.address } });
      expectRevert(res, "factory", "RedeemDelayNotElapsed", {
        requestId: "1",
        readyAt: (r.createdAt + 3600n).toString(),
      });
    });

    it("finalizeRedeem_byNeitherExecutorNorRequester_is422NotRequester", async () => {
      const { outsider } = e.who;
      const res = await e.call("buildFinalizeRedeem", { body: { input: { requestId: "1" }, key: outsider.address } });
      expectRevert(res, "factory", "NotRequester", { requestId: "1", caller: outsider.address });
    });

    it("finalizeRedeem_byTheExecutor_landsAtAnyTime_payingCollateralToTheRequestsTo", async () => {
      const { executor, bob } = e.who;
      const supply = await e.c.points.totalSupply();
      const data = await e.ok("buildFinalizeRedeem", { body: { input: { requestId: 1 }, key: executor.address } });
      assert.deepEqual(data.call, { contract: "factory", function: "finalizeRedeem", args: ["1"] });
      await e.send(executor, data);
      assert.equal((await e.c.factory.getRedeemRequest(1n)).status, 2n); // Finalized
      assert.equal(await e.c.usdc.balanceOf(bob.address), USDC(40));
      assert.equal(await e.c.points.totalSupply(), supply - SP(40));
      assert.equal(await e.c.points.balanceOf(e.record.factory), SP(10));
    });

    it("finalizeRedeem_ofAFinalizedRequest_is422RedeemRequestNotPending", async () => {
      const { executor } = e.who;
      const res = await e.call("buildFinalizeRedeem", { body: { input: { requestId: "1" }, key: executor.address } });
      expectRevert(res, "factory", "RedeemRequestNotPending", { requestId: "1", status: "2" });
    });

    it("finalizeRedeem_ofAnUnknownRequest_is422RedeemRequestNotFound", async () => {
      const { executor } = e.who;
      const res = await e.call("buildFinalizeRedeem", { body: { input: { requestId: "99" }, key: executor.address } });
      expectRevert(res, "factory", "RedeemRequestNotFound", { requestId: "99" });
    });

    it("finalizeRedeem_byTheRequesterAfterTheDelay_lands", async () => {
      const { alice } = e.who;
      await increaseTime(e, 3600);
      const before = await e.c.usdc.balanceOf(alice.address);
      const body = { input: { requestId: second.toString() }, key: alice.address };
      await e.send(alice, await e.ok("buildFinalizeRedeem", { body }));
      assert.equal((await e.c.factory.getRedeemRequest(second)).status, 2n);
      assert.equal(await e.c.usdc.balanceOf(alice.address), before + USDC(10));
      assert.equal(await e.c.points.balanceOf(e.record.factory), 0n);
    });
  });

  describe("POST /api/v1/build/transfer", () => {
    it("transfer_betweenListedAccounts_movesExactlyTheAmount", async () => {
      const { alice, bob } = e.who;
      const [a, b] = [await e.c.points.balanceOf(alice.address), await e.c.points.balanceOf(bob.address)];
      const data = await e.ok("buildTransfer", {
        body: { input: { to: bob.address, amount: SP(7).toString() }, key: alice.address },
      });
      assert.deepEqual(data.call, { contract: "points", function: "transfer", args: [bob.address, SP(7).toString()] });
      await e.send(alice, data);
      assert.equal(await e.c.points.balanceOf(alice.address), a - SP(7));
      assert.equal(await e.c.points.balanceOf(bob.address), b + SP(7));
    });

    it("transfer_toAnAccountNotOnTheTransferAllowlist_is422TransferNotWhitelisted", async () => {
      const { alice, outsider } = e.who;
      const res = await e.call("buildTransfer", {
        body: { input: { to: outsider.address, amount: "1" }, key: alice.address },
      });
      expectRevert(res, "points", "TransferNotWhitelisted", { account: outsider.address });
    });

    it("transfer_aboveTheBalance_is422ERC20InsufficientBalance", async () => {
      const { alice, bob } = e.who;
      const balance = await e.c.points.balanceOf(alice.address);
      const amount = (balance + 1n).toString();
      const res = await e.call("buildTransfer", { body: { input: { to: bob.address, amount }, key: alice.address } });
      expectRevert(res, "points", "ERC20InsufficientBalance", {
        sender: alice.address,
        balance: balance.toString(),
        needed: amount,
      });
    });
  });

  describe("the unsigned transaction", () => {
    const build = (key: string) =>
      e.ok("buildTransfer", { body: { input: { to: e.who.bob.address, amount: "1" }, key } });

    it("tx_isExactly0x02RlpOfItsDecodedFields_type2_pendingNonce_valueZero_emptyAccessList", async () => {
      const { alice } = e.who;
      const data = await build(alice.address);
      const bytes = Buffer.from(data.tx, "base64");
      assert.equal(bytes[0], 2);
      const hex = hexlify(bytes);
      const q = (v: bigint | number) => hexlify(toBeArray(v));
      // Rebuilt independently from the decoded fields: [chainId, nonce, tip, maxFee, gas, to, value, data, accessList].
      const expected = concat([
        "0x02",
        encodeRlp([
          q(BigInt(data.chainId)),
          q(data.nonce),
          q(BigInt(data.maxPriorityFeePerGas)),
          q(BigInt(data.maxFeePerGas)),
          q(BigInt(data.gas)),
          data.to.toLowerCase(),
          q(BigInt(data.value)),
          data.data,
          [],
        ]),
      ]);
      assert.equal(hex, expected);
      assert.equal((decodeRlp(bytes.subarray(1)) as unknown[]).length, 9, "nine fields: no signature");

      const t = Transaction.from(hex);
      assert.equal(t.unsignedSerialized, hex);
      assert.equal(t.type, 2);
      assert.equal(t.chainId, 31337n);
      assert.equal(t.nonce, await e.node.provider.getTransactionCount(alice.address, "pending"));
      assert.ok(t.gasLimit > 0n);
      assert.equal(t.gasLimit, BigInt(data.gas));
      assert.equal(t.maxFeePerGas, BigInt(data.maxFeePerGas));
      assert.equal(t.maxPriorityFeePerGas, BigInt(data.maxPriorityFeePerGas));
      assert.equal(t.to, e.record.points);
      assert.equal(t.data, data.data);
      assert.equal(t.value, 0n);
      assert.deepEqual(t.accessList, []);
      assert.equal(t.signature, null);
    });

    it("tx_nonceCountsTheSignersPendingTransactions", async () => {
      const { alice } = e.who;
      const provider = e.node.provider;
      const first = await build(alice.address);
      assert.equal(first.nonce, await provider.getTransactionCount(alice.address, "latest"));
      await e.node.setAutomine(false);
      try {
        const raw = await alice.signTransaction(Transaction.from(hexlify(Buffer.from(first.tx, "base64"))));
        await provider.send("eth_sendRawTransaction", [raw]);
        const second = await build(alice.address);
        assert.equal(second.nonce, first.nonce + 1);
      } finally {
        await e.node.mine();
        await e.node.setAutomine(true);
      }
    });

    it("service_neverReturnsASignature", async () => {
      const res = await e.call("buildTransfer", {
        body: { input: { to: e.who.bob.address, amount: "1" }, key: e.who.alice.address },
      });
      for (const k of ["signature", "r", "s", "v", "yParity", "hash", "raw"]) {
        assert.equal(k in res.body.data, false, `data.${k} must not exist`);
      }
      assert.equal(Transaction.from(hexlify(Buffer.from(res.body.data.tx, "base64"))).signature, null);
    });
  });
});
