import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { startApi, bearerFor, DEPLOY_SCOPES, type TestApi } from "./helpers/service.js";
import { assertOneSetEach, onboardingBody, recordedTxs, waitForTask } from "./helpers/onboarding.js";
import { until } from "./helpers/engine.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";

/** One release (five implementations and the ProgramFactory), then per program a mock collateral and deployProgram. */
const RELEASE_TXS = 6;
const PER_PROGRAM_TXS = 2;

/**
 * Onboarding tasks through the transaction engine on a chain that misbehaves: blocks every
 * 250 ms (automine off), the first RPC endpoint dead, dropped sendRawTransaction calls, 429s
 * and a base fee spike. Every task finishes exactly once and the executor sends what a clean
 * run sends.
 */
describe("engine: onboarding tasks side by side through faults", () => {
  let node: DevNode;
  let proxy: FaultProxy;
  let dead: FaultProxy;
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    node = await startNode();
    await node.setAutomine(false);
    await node.setIntervalMining(250);
    proxy = await startFaultProxy(node.url);
    dead = await startFaultProxy(node.url, { down: true });
    const chain = {
      chainId: 31337,
      name: "Flaky",
      rpcUrl: dead.url,
      rpcUrls: [proxy.url],
      blockTimeMs: 250,
      engine: { replaceAfterBlocks: 3, concurrency: 6, minBalance: "1000000000000000000" },
    };
    api = await startApi(node.url, { CHAINS: JSON.stringify([chain]), WORKER_POLL_MS: "20" });
    auth = await bearerFor(api.service, "engine", DEPLOY_SCOPES);
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await dead?.close();
    await node?.stop();
  });

  const post = async (brand: string) => {
    const res = await api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody(brand, actors(node.provider).brand.address),
      auth,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.taskId as string;
  };

  it("dropsAnd429sAndAFeeSpike_everyTaskSucceedsOnce_andTheNonceCountIsACleanRuns", async () => {
    const executor = actors(node.provider).executor.address;
    const before = await node.provider.getTransactionCount(executor, "latest");
    proxy.faults.dropSends = 3;
    proxy.faults.tooManyRequests = 4;
    const brands = ["flakya", "flakyb", "flakyc", "flakyd", "flakye"];
    // Mining holds still until the spike is set, so the first transaction is still waiting when
    // the next blocks cost 100 gwei, far above what it offers (a block mined in between on a
    // loaded machine would let the spike miss every transaction).
    await node.setIntervalMining(0);
    let ids: string[];
    try {
      ids = await Promise.all(brands.map(post));
      await until(
        async () =>
          (await node.provider.getTransactionCount(executor, "pending")) >
          (await node.provider.getTransactionCount(executor, "latest")),
        20_000,
        "a pending transaction",
      );
      await node.setNextBaseFee(100n * 10n ** 9n);
    } finally {
      await node.setIntervalMining(250);
    }
    const tasks = await Promise.all(ids.map((id) => waitForTask(api, id, auth, 120_000)));
    for (const t of tasks) assert.equal(t.status, "succeeded", JSON.stringify(t.error));
    const release = (await new DbManifestStore(api.service.ctx.db).getRelease(31337n))!;
    await assertOneSetEach(node.provider, release.programFactory, brands, brands.length);
    for (const brand of brands) assert.ok(await api.service.ctx.programs.findByBrand("31337", brand), brand);

    const sent = (await node.provider.getTransactionCount(executor, "latest")) - before;
    assert.equal(sent, RELEASE_TXS + PER_PROGRAM_TXS * brands.length, "a clean run's nonce count");
    // Every nonce sent is recorded by exactly one task stage; a replaced one under every hash it had.
    const store = new DbManifestStore(api.service.ctx.db);
    const recorded = new Map<number, string[]>();
    for (const brand of brands) {
      const stages = (await store.getStages({ chainId: 31337n, brand })) ?? {};
      for (const s of Object.values(stages))
        for (const t of s?.transactions ?? []) recorded.set(t.nonce, [...(recorded.get(t.nonce) ?? []), t.hash]);
    }
    assert.deepEqual(
      [...recorded.keys()].sort((a, b) => a - b),
      Array.from({ length: sent }, (_, i) => before + i),
    );
    const replacedNonces = [...recorded.values()].filter((h) => h.length > 1);
    assert.ok(replacedNonces.length >= 1, "the fee spike made the engine replace at least one transaction");
    const hashes = tasks.flatMap(recordedTxs);
    assert.equal(hashes.length, [...recorded.values()].flat().length, "the task view shows every hash tried");
    assert.ok(dead.methods.length === 0, "the dead endpoint answered nothing");
    assert.equal(proxy.dropped.length, 3);
  });

  it("belowTheBalanceThreshold_theTaskWaitsWithAClearStatus_andResumesWhenFunded", async () => {
    const executor = actors(node.provider).executor.address;
    const funded = await node.provider.getBalance(executor);
    await node.setBalance(executor, 10n ** 17n);
    const before = await node.provider.getTransactionCount(executor, "latest");
    const id = await post("broke");
    let view: { status: string; waiting: { code: string; message: string } | null } | undefined;
    await until(
      async () => {
        view = (await api.call("GET", `/api/v1/client-onboarding/tasks/${id}`, undefined, auth)).body.data;
        return view?.waiting !== null;
      },
      20_000,
      "the pause",
    );
    assert.equal(view!.status, "running");
    assert.equal(view!.waiting!.code, "EXECUTOR_LOW_BALANCE");
    assert.match(
      view!.waiting!.message,
      new RegExp(`executor ${executor} holds 100000000000000000 wei, below the threshold of 1000000000000000000 wei`),
    );
    assert.equal(await node.provider.getTransactionCount(executor, "pending"), before, "nothing sent while paused");
    await node.setBalance(executor, funded);
    const done = await waitForTask(api, id, auth, 60_000);
    assert.equal(done.status, "succeeded");
    assert.equal(done.waiting, null);
    assert.equal((await node.provider.getTransactionCount(executor, "latest")) - before, PER_PROGRAM_TXS);
  });
});
