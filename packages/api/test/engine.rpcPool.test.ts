import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { FetchRequest } from "ethers";
import { startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { RpcPool } from "../src/core/chain/rpcPool.js";
import { rpcLabel } from "../src/core/chain/rpc.js";
import { configProblems } from "./helpers/config.js";
import { loadConfig } from "../src/index.js";

const chainOf = (urls: string[]) => ({
  chainId: 31337,
  name: "Local",
  rpcUrl: urls[0],
  rpcUrls: urls.slice(1),
  explorerUrl: null,
  testnet: true,
  blockTimeMs: 1000,
});

/** eth_blockNumber through the pool, as a provider of the service sends it. */
async function blockNumber(pool: RpcPool): Promise<bigint> {
  const req = new FetchRequest(rpcLabel(31337));
  req.body = { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] };
  req.setHeader("content-type", "application/json");
  req.getUrlFunc = pool.getUrlFunc();
  const res = await req.send();
  res.assertOk();
  return BigInt((res.bodyJson as { result: string }).result);
}

describe("engine: RPC endpoints of a chain (failover, backoff, chain id per endpoint)", () => {
  let node: DevNode;
  let down: FaultProxy;
  let limited: FaultProxy;
  let wrong: FaultProxy;
  let good: FaultProxy;

  before(async () => {
    node = await startNode();
    [down, limited, wrong, good] = await Promise.all([0, 1, 2, 3].map(() => startFaultProxy(node.url)));
    down.faults.down = true;
    wrong.faults.chainId = 1;
  });
  after(async () => {
    for (const p of [down, limited, wrong, good]) await p?.close();
    await node?.stop();
  });

  it("aDeadFirstEndpoint_failsOverToTheNext_andBacksOff", async () => {
    const pool = new RpcPool(chainOf([down.url, good.url]), 2000);
    assert.equal(await blockNumber(pool), BigInt(await node.provider.getBlockNumber()));
    const [first, second] = pool.view();
    assert.equal(first.state, "backoff");
    assert.equal(second.state, "healthy");
    const before = good.methods.length;
    await blockNumber(pool);
    assert.equal(good.methods.length, before + 1, "the dead endpoint is skipped while it backs off");
  });

  it("a429_backsOffThatEndpoint_andTheRequestMovesOn", async () => {
    const pool = new RpcPool(chainOf([limited.url, good.url]), 2000);
    await pool.checkAll();
    limited.faults.tooManyRequests = 1;
    const goodBefore = good.methods.length;
    await blockNumber(pool);
    assert.equal(pool.view()[0].state, "backoff");
    assert.equal(pool.view()[0].reason, "HTTP 429");
    assert.equal(good.methods.at(-1), "eth_blockNumber");
    assert.equal(good.methods.length, goodBefore + 1);
  });

  it("anEndpointOfAnotherChain_isRefusedLoudly_andNeverUsed", async () => {
    const refused: [number, bigint][] = [];
    const pool = new RpcPool(chainOf([wrong.url, good.url]), 2000, (i, id) => refused.push([i, id]));
    await blockNumber(pool);
    assert.deepEqual(refused, [[0, 1n]]);
    assert.deepEqual(pool.view()[0], { index: 0, state: "refused", failures: 0, reason: "serves chain 1, not 31337" });
    assert.deepEqual(
      wrong.methods.filter((m) => m !== "eth_chainId"),
      [],
      "nothing but the chain id question went to it",
    );
  });

  it("everyEndpointDown_failsTheRequest_withinTheWaitBound", async () => {
    const pool = new RpcPool(chainOf([down.url, down.url]), 500);
    const t0 = Date.now();
    await assert.rejects(blockNumber(pool));
    assert.ok(Date.now() - t0 < 8000);
  });

  it("twoTransientlyLimitedEndpoints_theRequestWaitsOutTheBackoff_andSucceeds", async () => {
    const a = await startFaultProxy(node.url, { tooManyRequests: 1 });
    const b = await startFaultProxy(node.url, { tooManyRequests: 1 });
    try {
      const pool = new RpcPool(chainOf([a.url, b.url]), 2000);
      assert.equal(await blockNumber(pool), BigInt(await node.provider.getBlockNumber()));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("engine: configuration validated at boot", () => {
  const chain = (over: Record<string, unknown>) =>
    JSON.stringify([{ chainId: 31337, name: "Local", rpcUrl: "http://127.0.0.1:8545", ...over }]);

  it("defaults_areFilledIn", () => {
    const c = loadConfig({ CHAINS: chain({}) }).chains[0];
    assert.deepEqual(c.rpcUrls, []);
    assert.deepEqual(c.engine, {
      maxFeePerGas: "500000000000",
      maxPriorityFeePerGas: "5000000000",
      replaceAfterBlocks: 3,
      confirmations: 1,
      minBalance: "0",
      concurrency: 8,
    });
  });

  it("badEngineSettings_areRefused_namingEachField", () => {
    const lines = configProblems({
      CHAINS: chain({
        rpcUrls: ["ftp://x"],
        engine: {
          maxFeePerGas: "1e9",
          replaceAfterBlocks: 0,
          confirmations: 0,
          concurrency: 1000,
          minBalance: "-1",
          bogus: 1,
        },
      }),
    });
    for (const field of ["rpcUrls.0", "engine.maxFeePerGas", "engine.minBalance", "engine"]) {
      assert.ok(
        lines.some((l) => l.startsWith(`CHAINS.0.${field}:`)),
        `${field}: ${lines.join("\n")}`,
      );
    }
    for (const field of ["replaceAfterBlocks", "confirmations", "concurrency"]) {
      assert.ok(
        lines.some((l) => l.startsWith(`CHAINS.0.engine.${field}:`)),
        `${field}: ${lines.join("\n")}`,
      );
    }
  });

  it("aTipCapAboveTheFeeCap_isRefused", () => {
    const lines = configProblems({ CHAINS: chain({ engine: { maxFeePerGas: "10", maxPriorityFeePerGas: "11" } }) });
    assert.deepEqual(lines, [
      "CHAINS.0.engine.maxPriorityFeePerGas: maxPriorityFeePerGas must not exceed maxFeePerGas",
    ]);
  });

  it("theDevKey_needsEveryEndpointOnLoopback", () => {
    const lines = configProblems({ CHAINS: chain({ rpcUrls: ["https://rpc.example.com"] }) });
    assert.ok(
      lines.some((l) => l.startsWith("EXECUTOR_PRIVATE_KEY:")),
      lines.join("\n"),
    );
  });
});
