import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Factory__factory, MockStablecoin__factory, Points__factory, type Factory } from "@points/contracts";
import { actors, deployProgram, freePort, startNode, type DevNode } from "@points/testkit";
import { openDb } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { DeskStore } from "../src/core/desk/store.js";
import { ProgramRegistry } from "../src/core/registry/programs.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { errorLines, startWorkerProcess } from "./helpers/workerProcess.js";

const SP = (n: number) => BigInt(n) * 10n ** 18n;
const DELAY = 3600;
const REQUESTS = 3;
// Ten minutes: within the test only an explicit release can explain a takeover, never expiry.
const LEASE_MS = 600_000;
// The documented bound (JOB_DRAIN_MS, 10 s by default) plus a margin for a loaded machine.
const SHUTDOWN_BOUND_MS = 10_000;
const MARGIN_MS = 10_000;

async function until(what: string, fn: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// SIGTERM while the desk's finalize batch is sent but not mined: the process exits within the
// bound, gives the executor lease back at once, and the peer that takes over sends nothing for
// requests that batch already carries, so each is finalized once by one transaction.
describe("graceful shutdown: SIGTERM during a redemption desk batch (points-api serve, PostgreSQL)", () => {
  let node: DevNode;
  let scratch: ScratchDatabase;
  let db: Awaited<ReturnType<typeof openDb>>;
  let peer: TestApi | undefined;
  let proxy: RpcProxy | undefined;
  let factory: Factory;
  let asset: string;
  // A refused request's hold lasts a second, not a minute: a hold cannot hide a second send.
  const env = () => ({
    DATABASE_URL: scratch.url,
    TASK_LEASE_MS: String(LEASE_MS),
    WORKER_POLL_MS: "100",
    DESK_BACKOFF_MIN_MS: "1000",
  });
  const executorLease = async () =>
    (
      await db.query<{ owner: string; live: boolean }>(
        "SELECT owner, expires_at > now() AS live FROM executor_leases WHERE chain_id = '31337'",
      )
    )[0];
  const status = async (id: bigint) => Number((await factory.getRedeemRequest(id)).status);

  before(async () => {
    [node, scratch] = await Promise.all([startNode({ port: await freePort() }), createScratchDatabase()]);
    db = await openDb({ databaseUrl: scratch.url, dataDir: "memory://" });
    await migrate(db);
    const deployed = await deployProgram(node.provider, "acme");
    await new ProgramRegistry(db).insert(deployed.record);
    assert.equal(await new DeskStore(db).setPolicy(deployed.record.brand, "automatic", 0, "test"), true);
    asset = deployed.usdc;
    const p = node.provider;
    const { brand, alice, bob } = actors(p);
    factory = Factory__factory.connect(deployed.record.factory, p);
    const points = Points__factory.connect(deployed.record.points, p);
    const usdc = MockStablecoin__factory.connect(deployed.usdc, p);
    // alice holds 10 SP and may redeem to bob (setup straight through ethers).
    for (const send of [
      () => factory.connect(brand).addToMintWhitelist(alice.address),
      () => factory.connect(brand).addToRedeemWhitelist(alice.address),
      () => points.connect(brand).addToTransferWhitelist(alice.address),
      () => points.connect(brand).addToTransferWhitelist(bob.address),
      () => usdc.connect(alice).mint(alice.address, 10n * 10n ** 6n),
      () => usdc.connect(alice).approve(deployed.record.factory, 10n * 10n ** 6n),
      () => factory.connect(alice).mint(deployed.usdc, 10n * 10n ** 6n, alice.address),
      () => points.connect(alice).approve(deployed.record.factory, SP(10)),
    ])
      await (await send()).wait();
  });
  after(async () => {
    await peer?.close();
    await proxy?.close();
    await node?.setAutomine(true);
    await db?.close();
    await node?.stop();
    await scratch?.drop();
  });

  it("pointsApiServe_onSigtermWithABatchPending_exits0WithinTheBound_releasesTheLease_andThePeerFinalizesEachRequestOnce", async (t) => {
    const { alice, bob, executor } = actors(node.provider);
    const usdc = MockStablecoin__factory.connect(asset, node.provider);
    const first = (await factory.redeemRequestCount()) + 1n;
    for (let i = 0; i < REQUESTS; i++)
      await (await factory.connect(alice).requestRedeem(asset, bob.address, SP(1), false)).wait();
    const ids = Array.from({ length: REQUESTS }, (_, i) => first + BigInt(i));
    const bobBefore = await usdc.balanceOf(bob.address);
    const nonceBefore = await node.provider.getTransactionCount(executor.address, "latest");
    const startBlock = await node.provider.getBlockNumber();

    const proc = startWorkerProcess(
      {
        ...env(),
        PORT: "0",
        LEDGER: "off",
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 200 }]),
      },
      "serve",
    );
    t.after(() => proc.kill("SIGKILL"));
    let owner = "";
    await until("the serve process holds the executor lease", async () => {
      assert.equal(proc.child.exitCode, null, proc.output());
      owner = (await executorLease())?.owner ?? "";
      return owner !== "";
    });
    // From here nothing is mined until the peer runs: the batch the desk sends stays pending.
    await node.setAutomine(false);
    await node.increaseTime(DELAY + 1);
    await node.mine();
    await until(
      "the desk's batch is pending",
      async () => (await node.provider.getTransactionCount(executor.address, "pending")) === nonceBefore + 1,
    ).catch((e: Error) => assert.fail(`${e.message}\n${proc.output().slice(-3000)}`));
    assert.deepEqual(await Promise.all(ids.map(status)), [1, 1, 1]);

    const signalled = Date.now();
    await proc.kill("SIGTERM");
    const tookMs = Date.now() - signalled;

    assert.equal(proc.child.exitCode, 0, proc.output());
    assert.ok(tookMs < SHUTDOWN_BOUND_MS + MARGIN_MS, `exited after ${tookMs} ms`);
    // Given back on the way out, not left for its ten minutes to run out.
    assert.equal(await executorLease(), undefined);
    // The batch's wait was cut by the shutdown, not failed: no request is held back for it, and
    // nothing was logged as an error (the pass left behind must not write after the database closed).
    assert.deepEqual(await db.query("SELECT request_id, reason FROM redemption_desk_holds"), []);
    assert.deepEqual(errorLines(proc.output()), []);

    // The peer's node estimates gas at the latest block when not told otherwise (the JSON-RPC
    // spec leaves the default to the node; Hardhat's is pending): the batch's requests are still
    // pending there, so only an estimate at the pending block shows them already carried.
    proxy = await startRpcProxy(node.url);
    proxy.forward = (c) =>
      c.method === "eth_estimateGas" && c.params.length === 1 ? { ...c, params: [...c.params, "latest"] } : c;
    peer = await startApi(proxy.url, env());
    await until(
      "the peer holds the executor lease",
      async () => (await executorLease())?.owner === peer!.service.worker!.id,
    );
    await until("the peer's desk acts for the chain", async () => peer!.service.desk!.lease.holds("31337"));
    // Several of the peer's desk passes while the batch is still pending: it sends nothing more.
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), nonceBefore + 1);

    await node.mine();
    await until("every request finalized", async () => (await Promise.all(ids.map(status))).every((s) => s === 2));
    // More passes with the requests finalized, then one more block for anything sent meanwhile.
    await new Promise((r) => setTimeout(r, 2000));
    await node.mine();

    assert.deepEqual(await Promise.all(ids.map(status)), [2, 2, 2]);
    assert.equal((await usdc.balanceOf(bob.address)) - bobBefore, BigInt(REQUESTS) * 10n ** 6n);
    // One transaction carried them all: the executor's nonce moved by exactly one.
    assert.equal(await node.provider.getTransactionCount(executor.address, "latest"), nonceBefore + 1);
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), nonceBefore + 1);
    const finalized = await factory.queryFilter(factory.filters.RedeemFinalized(), startBlock + 1);
    assert.deepEqual(
      finalized.map((e) => e.args[0]),
      ids,
    );
    assert.equal(new Set(finalized.map((e) => e.transactionHash)).size, 1);
    assert.deepEqual(await factory.queryFilter(factory.filters.RedeemFinalizeSkipped(), startBlock + 1), []);
  });
});
