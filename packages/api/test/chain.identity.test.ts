import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  actors,
  deployProgram,
  fundedCampaign,
  startFaultProxy,
  startNode,
  type DevNode,
  type FaultProxy,
} from "@points/testkit";
import { rpcPool } from "../src/core/chain/rpcPool.js";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";

const CHECK_MS = 200;

/** Polls `read` until `done` holds (state, not a clock: the periodic check runs under load too). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, CHECK_MS / 2));
  }
}

// A node of another chain swapped in behind the chain's only URL must not get
// a transaction built against it (nonce 0, a simulation against an address without code).
describe("chain identity: an endpoint answering another chain is taken out until it is right again", () => {
  let node: DevNode;
  let other: DevNode;
  let proxy: FaultProxy;
  let api: TestApi;
  let auth: Record<string, string>;
  let mintBody: Record<string, string>;

  before(async () => {
    [node, other] = await Promise.all([startNode(), startNode()]);
    const { record, usdc } = await deployProgram(node.provider);
    const { campaignId } = await fundedCampaign(node.provider, record, usdc);
    proxy = await startFaultProxy(node.url);
    api = await startApi(proxy.url, {
      CHAINS: JSON.stringify([
        { chainId: 31337, name: "Hardhat", rpcUrl: proxy.url, blockTimeMs: 200, chainIdCheckMs: CHECK_MS },
      ]),
    });
    await api.service.ctx.programs.insert(record);
    auth = await bearerFor(api.service, "test");
    const { brand, alice } = actors(node.provider);
    mintBody = { campaignId, to: alice.address, amount: "1000000000000000000", from: brand.address };
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await Promise.all([node?.stop(), other?.stop()]);
  });

  const mint = () => api.call("POST", "/studio/sdk/v1/tx/psp/mint", mintBody, auth);

  it("theOnlyEndpointSwappedToAnotherChain_buildAnswers503ChainMismatch_thenRecoversWhenSwappedBack", async () => {
    const ok = await mint();
    assert.equal(ok.status, 200, JSON.stringify(ok.body));

    // Another node behind the same URL, answering chain 8453 (the second dev node stands in for it).
    proxy.faults.target = other.url;
    proxy.faults.chainId = 8453;
    const refused = await until(mint, (r) => r.status !== 200);
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.deepEqual(refused.body, {
      success: false,
      error: {
        code: "CHAIN_MISMATCH",
        message: "chain 31337 (Hardhat): no RPC endpoint serves this chain right now; nothing was built or sent",
        details: { served: "8453" },
      },
    });
    const [view] = rpcPool(api.service.ctx.chains.get(31337).config, 1).view();
    assert.equal(view!.state, "refused");
    assert.equal(view!.reason, "serves chain 8453, not 31337");
    const sent = proxy.methods.length;
    const again = await mint();
    assert.equal(again.status, 503);
    assert.deepEqual(
      proxy.methods.slice(sent).filter((m) => m !== "eth_chainId"),
      [],
      "nothing but the chain id check reaches the wrong node",
    );

    proxy.faults.target = undefined;
    proxy.faults.chainId = undefined;
    const back = await until(mint, (r) => r.status === 200);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(
      (back.body as { data: { nonce: number } }).data.nonce,
      await node.provider.getTransactionCount(mintBody.from!),
    );
  });
});
