import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { expectError, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";

const REFUSED =
  "building transactions on chain 31337 (Mainnet-like, not a testnet) needs an API key (Authorization: Bearer <key>)";

// The mainnet build gate on the redeem build routes: the dev node stands for a chain the
// operator did not mark testnet, so an anonymous build would be a free proxy to a paid RPC.
describe("e2e: redeem build routes on a chain not marked testnet need a key", () => {
  let e: E2E;
  let params: { chainId: string; factoryAddr: string; assetAddr: string };
  const create = (withKey: boolean) =>
    e.call("chainRedeemCreate", {
      params,
      body: {
        input: { to: e.who.bob.address, amount: SP(5).toString(), expectedBasketMode: false },
        key: e.who.alice.address,
      },
      auth: withKey,
    });
  const redeem = (withKey: boolean) =>
    e.call("buildRedeem", {
      body: { input: { asset: e.usdc, amount: SP(5).toString() }, key: e.who.alice.address },
      auth: withKey,
    });

  before(async () => {
    e = await setupE2E({}, (rpcUrl) => ({
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Mainnet-like", rpcUrl, blockTimeMs: 200, testnet: false }]),
    }));
    const { brand, alice } = e.who;
    params = { chainId: "31337", factoryAddr: e.record.factory, assetAddr: e.usdc };
    await e.giveSp(alice.address, SP(100));
    await (await e.c.factory.connect(brand).addToRedeemWhitelist(alice.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(e.who.bob.address)).wait();
    await (await e.c.points.connect(alice).approve(e.record.factory, SP(100))).wait();
  });
  after(() => e?.stop());

  it("attack_anonymousRedeemCreate_onAChainNotMarkedTestnet_isRefused401", async () => {
    const details = expectError(await create(false), 401, "UNAUTHORIZED");
    assert.equal(details, undefined);
    assert.equal((await create(false)).body.error.message, REFUSED);
  });

  it("attack_anonymousBuildRedeem_onAChainNotMarkedTestnet_isRefused401", async () => {
    expectError(await redeem(false), 401, "UNAUTHORIZED");
    assert.equal((await redeem(false)).body.error.message, REFUSED);
  });

  it("withAKey_bothRedeemBuildsAreBuilt", async () => {
    const created = expectOk("chainRedeemCreate", await create(true));
    assert.equal(created.from, e.who.alice.address);
    assert.equal(created.call.contract, "factory");
    const built = expectOk("buildRedeem", await redeem(true));
    assert.equal(built.from, e.who.alice.address);
    assert.deepEqual(built.call.args, [e.usdc, e.who.alice.address, SP(5).toString(), false]);
    // Built, and it holds: signed and sent, the request exists on chain.
    await e.send(e.who.alice, built);
    assert.equal((await e.c.factory.getRedeemRequest(1n)).requester, e.who.alice.address);
  });
});
