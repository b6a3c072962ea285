import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, deployProgram, type DevNode, fundedCampaign, startNode } from "@points/testkit";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";

// The caches last one block time. Long enough that one test step (a burst of 20 builds) stays inside it on a loaded
// 2-core machine: at 1.5 s a loaded CI run saw the fee data and the signer's code expire mid-step.
const BLOCK_TIME_MS = 8000;
const FEE_METHODS = ["eth_getBlockByNumber", "eth_gasPrice", "eth_maxPriorityFeePerGas"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("chain: reads batched, chain id and fee data cached per block", () => {
  let node: DevNode;
  let proxy: RpcProxy;
  let api: TestApi;
  let auth: Record<string, string>;
  let mintBody: Record<string, string>;

  before(async () => {
    node = await startNode();
    const { record, usdc } = await deployProgram(node.provider);
    const { campaignId } = await fundedCampaign(node.provider, record, usdc);
    proxy = await startRpcProxy(node.url);
    api = await startApi(proxy.url, {
      // The pool's own periodic chain-id check (every 10 s by default) is not a build's read: an hour apart here, so
      // the counts below are the builds' alone (a loaded run once saw it land inside the burst).
      CHAINS: JSON.stringify([
        { chainId: 31337, name: "Hardhat", rpcUrl: proxy.url, blockTimeMs: BLOCK_TIME_MS, chainIdCheckMs: 3_600_000 },
      ]),
    });
    await api.service.ctx.programs.insert(record);
    auth = { ...(await bearerFor(api.service, "test")) };
    const { brand, alice } = actors(node.provider);
    mintBody = { campaignId, to: alice.address, amount: "1000000000000000000", from: brand.address };
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await node?.stop();
  });

  const mint = () => api.call("POST", "/studio/sdk/v1/tx/psp/mint", mintBody, auth);

  it("pspMint_withFeesNotCached_sendsOneHttpRequest_batchingNonceEstimateAndFeeData", async () => {
    proxy.reset();
    const res = await mint();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(proxy.requests.length, 1, JSON.stringify(proxy.requests));
    const [only] = proxy.requests;
    assert.equal(only.batch, true);
    assert.ok(only.methods.includes("eth_getTransactionCount"));
    assert.ok(only.methods.includes("eth_estimateGas"));
    assert.ok(only.methods.includes("eth_getBlockByNumber"), "fee data rides in the same batch");
  });

  it("pspMint_withFeesSignerCodeAndCampaignKnown_sendsOnlyNonceAndEstimate", async () => {
    proxy.reset();
    const res = await mint();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // The first build read the signer's code (is it a Safe?) and checked that the campaign exists;
    // within the block time both are known, so one batch holds only this build's own reads.
    assert.equal(proxy.requests.length, 1, JSON.stringify(proxy.requests));
    assert.equal(proxy.requests[0]!.batch, true);
    assert.deepEqual([...proxy.requests[0]!.methods].sort(), ["eth_estimateGas", "eth_getTransactionCount"]);
  });

  it("pspMint_afterOneBlockTime_readsTheSignerCodeAgain_butNotTheKnownCampaign", async () => {
    // An account without code may get some (a Safe deployed at a predicted address, EIP-7702).
    await sleep(BLOCK_TIME_MS);
    proxy.reset();
    const res = await mint();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const methods = proxy.methods();
    assert.equal(methods.filter((m) => m === "eth_getCode").length, 1);
    assert.equal(methods.filter((m) => m === "eth_call").length, 0);
  });

  it("pspMint_burstOf20Builds_fetchesFeeDataOncePerBlockTime_andNeverTheChainId", async () => {
    await sleep(BLOCK_TIME_MS);
    proxy.reset();
    const burst = await Promise.all(Array.from({ length: 20 }, mint));
    assert.deepEqual(
      burst.map((r) => r.status),
      Array(20).fill(200),
    );
    const methods = proxy.methods();
    assert.equal(methods.filter((m) => m === "eth_getBlockByNumber").length, 1);
    assert.equal(methods.filter((m) => m === "eth_estimateGas").length, 20);
    assert.equal(methods.filter((m) => m === "eth_getTransactionCount").length, 20);
    assert.equal(methods.filter((m) => m === "eth_chainId").length, 0);
    assert.equal(methods.filter((m) => m === "eth_getCode").length, 1, "the signer's code is read once");
    assert.ok(proxy.requests.length <= 20, `${proxy.requests.length} HTTP requests for 20 builds`);

    // The next block time refreshes the fees, once.
    await sleep(BLOCK_TIME_MS);
    proxy.reset();
    await Promise.all([mint(), mint()]);
    assert.equal(proxy.methods().filter((m) => FEE_METHODS.includes(m)).length, FEE_METHODS.length);
  });

  it("factoryState_read_takesAtMostThreeHttpRoundTrips_andTwoOnceAssetVaultsAreKnown", async () => {
    proxy.reset();
    const first = await api.call("GET", "/api/v1/evm/factory/state");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.ok(proxy.requests.length <= 3, JSON.stringify(proxy.requests));

    proxy.reset();
    const second = await api.call("GET", "/api/v1/evm/factory/state");
    assert.equal(second.status, 200);
    assert.deepEqual(second.body.data.assets, first.body.data.assets);
    assert.equal(proxy.requests.length, 2, JSON.stringify(proxy.requests));
    assert.equal(proxy.methods().filter((m) => m === "eth_chainId").length, 0);
  });
});
