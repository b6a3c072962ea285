import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Factory__factory, MockStablecoin__factory, Points__factory, type Factory } from "@points/contracts";
import { actors, deployProgram, freePort, startNode, type DevNode } from "@points/testkit";
import { DeskStore } from "../src/core/desk/store.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startApi, type TestApi } from "./helpers/service.js";

const SP = (n: number) => BigInt(n) * 10n ** 18n;
const DELAY = 3600;

async function until(what: string, fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Two instances on one PostgreSQL must not both send desk transactions with
// the executor's key. Only the process holding the chain's executor lease runs the desk; the
// other takes over once the lease is given back.
describe("redemption desk: only the executor lease's holder sends (two services, one PostgreSQL)", () => {
  let node: DevNode;
  let scratch: ScratchDatabase;
  let a: TestApi | undefined;
  let b: TestApi | undefined;
  let factory: Factory;
  let programId: string;
  let asset: string;
  const status = async (id: bigint) => Number((await factory.getRedeemRequest(id)).status);
  const holder = async () =>
    (
      await (b ?? a!).service.ctx.db.query<{ owner: string }>(
        "SELECT owner FROM executor_leases WHERE chain_id = '31337'",
      )
    )[0]?.owner;

  before(async () => {
    const port = await freePort();
    [node, scratch] = await Promise.all([startNode({ port }), createScratchDatabase()]);
    const deployed = await deployProgram(node.provider, "acme");
    const env = { DATABASE_URL: scratch.url, TASK_LEASE_MS: "3000", WORKER_POLL_MS: "200" };
    a = await startApi(node.url, env);
    // A first: its worker takes the executor lease before B exists.
    await until("A holds the executor lease", async () => (await holder()) === a!.service.worker!.id);
    b = await startApi(node.url, env);
    await a.service.ctx.programs.insert(deployed.record);
    programId = deployed.record.brand;
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
    await a?.close();
    await b?.close();
    await node?.stop();
    await scratch?.drop();
  });

  it("theInstanceWithoutTheLease_sendsNothing_andTakesOverOnceTheHolderStops", async () => {
    const { alice, bob, executor } = actors(node.provider);
    // A's desk stops; A's worker keeps the lease. Before the fix B's desk finalized anyway.
    await a!.service.desk!.stop();
    assert.equal(await new DeskStore(b!.service.ctx.db).setPolicy(programId, "automatic", 0, "test"), true);
    const first = (await factory.redeemRequestCount()) + 1n;
    for (let i = 0; i < 2; i++)
      await (await factory.connect(alice).requestRedeem(asset, bob.address, SP(1), false)).wait();
    const ids = [first, first + 1n];
    await node.increaseTime(DELAY + 1);
    await node.mine();
    const sent = await node.provider.getTransactionCount(executor.address, "pending");

    // Many of B's desk passes (50 ms apart) while A holds the lease: nothing is sent.
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await holder(), a!.service.worker!.id);
    assert.deepEqual(await Promise.all(ids.map(status)), [1, 1]);
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), sent);

    // A stops and gives the lease back: B takes it and its desk finalizes both, in one batch.
    await a!.close();
    a = undefined;
    await until("both requests finalized", async () => (await Promise.all(ids.map(status))).every((s) => s === 2));
    assert.equal(await holder(), b!.service.worker!.id);
    assert.equal(await node.provider.getTransactionCount(executor.address, "latest"), sent + 1);
  });
});
