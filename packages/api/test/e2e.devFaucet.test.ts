import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet } from "ethers";
import { setupE2E, expectError, USDC, type E2E } from "./helpers/e2e.js";
import { startApi, type TestApi } from "./helpers/service.js";

// The dev faucet builds the mock collateral's open mint; nowhere but a dev chain on this machine.
describe("POST /api/v1/dev/faucet", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E();
  });
  after(() => e?.stop());

  it("devChainOnLoopback_buildsTheMockCollateralMint_forKey_toDefaultingToKey", async () => {
    const { alice, bob } = e.who;
    const data = await e.ok("devFaucet", {
      body: { input: { asset: e.usdc, amount: USDC(250).toString() }, key: bob.address },
    });
    assert.equal(data.from, bob.address);
    assert.equal(data.to, e.usdc);
    assert.deepEqual(data.call, { contract: "asset", function: "mint", args: [bob.address, USDC(250).toString()] });
    const before = await e.c.usdc.balanceOf(bob.address);
    await e.send(bob, data);
    assert.equal(await e.c.usdc.balanceOf(bob.address), before + USDC(250));

    const toAlice = await e.ok("devFaucet", {
      body: { input: { asset: e.usdc, amount: "7", to: alice.address }, key: bob.address },
    });
    const aliceBefore = await e.c.usdc.balanceOf(alice.address);
    await e.send(bob, toAlice);
    assert.equal(await e.c.usdc.balanceOf(alice.address), aliceBefore + 7n);
  });

  it("anAssetThatIsNotTheProgramsCollateral_is404_andZeroOrOddAmounts_are400", async () => {
    const key = e.who.bob.address;
    const other = Wallet.createRandom().address;
    expectError(await e.call("devFaucet", { body: { input: { asset: other, amount: "1" }, key } }), 404, "NOT_FOUND");
    for (const amount of ["0", "-1", "1.5", "abc", ""]) {
      const res = await e.call("devFaucet", { body: { input: { asset: e.usdc, amount }, key } });
      expectError(res, 400, "INVALID_INPUT");
    }
  });

  it("aDevChainIdOnARemoteRpc_isRefused_DEV_CHAIN_ONLY_beforeAnyCallToIt", async () => {
    // The same chain id 31337 behind a non-loopback URL (TEST-NET-1, never answers): any node
    // could report a dev id, so the route refuses without asking it anything.
    let remote: TestApi | undefined;
    try {
      remote = await startApi("http://192.0.2.1:8545", { EXECUTOR_PRIVATE_KEY: Wallet.createRandom().privateKey });
      await remote.service.ctx.programs.insert(e.record);
      const res = await remote.call("POST", "/api/v1/dev/faucet", {
        input: { asset: e.usdc, amount: "1" },
        key: e.who.bob.address,
      });
      const details = expectError(res, 403, "DEV_CHAIN_ONLY");
      assert.equal(details, undefined);
      assert.match(res.body.error.message, /not a dev chain served on this machine/);
    } finally {
      await remote?.close();
    }
  });
});
