import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { getCreateAddress } from "ethers";
import { pino } from "pino";
import { ProgramRegistry } from "../src/core/registry/programs.js";
import { checkProgramsAfterReorg } from "../src/core/onboarding/reorgCheck.js";
import { dbKeptStore } from "../src/core/engine/kept.js";
import type { TxEngine } from "../src/core/engine/engine.js";
import type { ReorgEvent } from "../src/core/engine/inflight.js";
import { engineSuite, sendTransfers, testEngine, until } from "./helpers/engine.js";
import { memoryDb } from "./helpers/db.js";

const SINK = "0x000000000000000000000000000000000000dEaD";
/** Init code whose contract returns 42: copies the 10 runtime bytes after it and returns them. */
const RUNTIME = "0x602a60005260206000f3";
const INIT = "0x600a600c600039600a6000f3" + RUNTIME.slice(2);

/** Deploys the tiny contract through `engine`; its address follows from the nonce. */
async function deployTiny(engine: TxEngine, from: string) {
  const [{ nonce, hash }] = await engine.sendBatch(
    1,
    async () => [{ data: INIT, gasLimit: 100_000n }],
    () => undefined,
  );
  return { nonce, hash, address: getCreateAddress({ from, nonce }) };
}

/**
 * A reorg deeper than the engine's finality: its final transactions leave the chain and the account's nonce falls
 * below what the engine took as final (docs/architecture.md#nodes-and-networks). On the testkit's node (TEST_NODE).
 */
describe("engine: a reorg removes final transactions", () => {
  const t = engineSuite();

  it("deepReorg_finalTransactionsAreReBroadcast_sameHashes_contractBack_nextSendGoesThrough", async () => {
    const { engine, wallet } = testEngine(t.node.url, t.key, { confirmations: 2, waitTimeoutMs: 30_000 });
    const reorgs: ReorgEvent[] = [];
    engine.on("reorged", (e: ReorgEvent) => reorgs.push(e));
    const before = await t.nonceOf(wallet.address);
    const point = await t.node.reorgPoint();
    const deployed = await deployTiny(engine, wallet.address);
    const { nonces, hashes } = await sendTransfers(engine, SINK, 2);
    await t.mine();
    await t.mine(2);
    await Promise.all([deployed.nonce, ...nonces].map((n) => engine.wait(n, "before the reorg")));
    assert.equal(await t.node.provider.getCode(deployed.address), RUNTIME);
    assert.equal(engine.status().latestNonce, before + 3);

    // Deeper than the engine's 2 confirmations: every block since the point is replaced by empty ones.
    await t.node.reorg(point, { extra: 2 });
    assert.equal(await t.nonceOf(wallet.address), before);
    assert.equal(await t.node.provider.getCode(deployed.address), "0x");

    await until(() => reorgs.length > 0, 10_000, "the engine to see the reorg");
    assert.deepEqual(reorgs[0], {
      fromNonce: before,
      toNonce: before + 3,
      resent: [before, before + 1, before + 2],
      filled: [],
      hashes: [deployed.hash, hashes.get(before + 1)![0], hashes.get(before + 2)![0]],
    });
    // The same signed bytes: the node holds the very hashes that were mined before.
    await until(
      async () => (await t.node.provider.getTransactionCount(wallet.address, "pending")) === before + 3,
      10_000,
      "the re-broadcasts",
    );
    const next = await sendTransfers(engine, SINK, 1);
    assert.deepEqual(next.nonces, [before + 3]);
    await t.mine();
    await t.mine(2);
    const receipts = await Promise.all(
      [before, before + 1, before + 2, before + 3].map((n) => engine.wait(n, "after")),
    );
    assert.deepEqual(
      receipts.map((r) => r.hash),
      [deployed.hash, hashes.get(before + 1)![0], hashes.get(before + 2)![0], next.hashes.get(before + 3)![0]],
    );
    assert.equal(await t.node.provider.getCode(deployed.address), RUNTIME);
    assert.equal(await t.nonceOf(wallet.address), before + 4);
    assert.equal(engine.status().latestNonce, before + 4);
    assert.equal(engine.status().nextNonce, before + 4);
    engine.stop();
  });

  it("deepReorg_blocksMinedWhileTheEngineLooked_theResentBytesWaitTheirBlocks_notReplacedAtTheNextLook", async () => {
    // The engine's look reads the chain after the reorg; before its answer comes back three new
    // blocks land (a chain moving during the look). The bytes it sends again must get their own
    // replacement window from then, not from the stale head of that look.
    const { engine, wallet, replaced } = testEngine(t.proxy.url, t.key, { confirmations: 2 });
    const before = await t.nonceOf(wallet.address);
    const point = await t.node.reorgPoint();
    const { nonces, hashes } = await sendTransfers(engine, SINK, 2);
    await t.mine();
    await t.mine(2);
    await Promise.all(nonces.map((n) => engine.wait(n, "before the reorg")));

    // The engine looks at nothing while the chain reorgs (a look in flight ends first).
    t.proxy.faults.down = true;
    await new Promise((r) => setTimeout(r, 200));
    await t.node.reorg(point);
    let moved = false;
    t.proxy.faults.afterAnswer = async (calls) => {
      if (moved || !calls.some((c) => c.method === "eth_blockNumber")) return;
      moved = true;
      await t.mine(3);
    };
    const reorgs: ReorgEvent[] = [];
    engine.on("reorged", (e: ReorgEvent) => reorgs.push(e));
    t.proxy.faults.down = false;
    await until(() => reorgs.length > 0, 10_000, "the engine to see the reorg");
    assert.deepEqual(reorgs[0]!.resent, [before, before + 1]);
    // Several more looks at the same head: the window (2 blocks) has not passed for the resent bytes.
    const looks = () => t.proxy.methods.filter((m) => m === "eth_blockNumber").length;
    const seen = looks();
    await until(() => looks() >= seen + 5, 10_000, "five more looks");
    assert.deepEqual(replaced, [], "nothing replaced before its window");
    await t.mine();
    await t.mine(2);
    const receipts = await Promise.all(nonces.map((n) => engine.wait(n, "after")));
    assert.deepEqual(
      receipts.map((r) => r.hash),
      nonces.map((n) => hashes.get(n)![0]),
      "the same signed bytes mined again",
    );
    engine.stop();
  });

  it("deepReorg_whileTheKeyHadNoEngine_theNextEngineReadsTheKeptBytesBack_sameHashesMined_contractBack", async () => {
    const db = await memoryDb();
    const first = testEngine(t.node.url, t.key, { confirmations: 2 });
    first.engine.stop();
    const from = first.wallet.address;
    const kept = dbKeptStore(db, "31337", from);
    const firstEngine = testEngine(t.node.url, t.key, { confirmations: 2, kept }).engine;
    const before = await t.nonceOf(from);
    const point = await t.node.reorgPoint();
    const deployed = await deployTiny(firstEngine, from);
    const { nonces, hashes } = await sendTransfers(firstEngine, SINK, 1);
    await t.mine();
    await t.mine(2);
    await Promise.all([deployed.nonce, ...nonces].map((n) => firstEngine.wait(n, "before the reorg")));
    await until(async () => (await kept.load()).length === 2, 10_000, "the kept bytes to be written");
    // The process holding the key stops (a restart, a lease taken over); the reorg comes while no engine runs.
    firstEngine.stop();
    await t.node.reorg(point, { extra: 2 });
    assert.equal(await t.nonceOf(from), before);
    assert.equal(await t.node.provider.getCode(deployed.address), "0x");

    const { engine } = testEngine(t.node.url, t.key, { confirmations: 2, kept });
    await engine.start();
    await until(
      async () => (await t.node.provider.getTransactionCount(from, "pending")) === before + 2,
      10_000,
      "the kept bytes sent again",
    );
    await t.mine();
    // The very transactions mined before the reorg, not new ones and not empty fills.
    const original = [deployed.hash, hashes.get(before + 1)![0]];
    for (const h of original) assert.notEqual(await t.node.provider.getTransactionReceipt(h), null, h);
    assert.equal(await t.node.provider.getCode(deployed.address), RUNTIME);
    const next = await sendTransfers(engine, SINK, 1);
    assert.deepEqual(next.nonces, [before + 2]);
    engine.stop();
    await db.close();
  });

  it("keptBytes_finalityDeep_areDroppedFromTheStore_notOnlyFromMemory", async () => {
    const db = await memoryDb();
    const probe = testEngine(t.node.url, t.key);
    probe.engine.stop();
    const kept = dbKeptStore(db, "31337", probe.wallet.address);
    const { engine } = testEngine(t.node.url, t.key, { confirmations: 1, finalityBlocks: 3, kept });
    const { nonces } = await sendTransfers(engine, SINK, 1);
    await t.mine();
    await engine.wait(nonces[0], "final");
    await until(async () => (await kept.load()).length === 1, 10_000, "the kept bytes to be written");
    await t.mine(4);
    await until(async () => (await kept.load()).length === 0, 10_000, "the bytes dropped at finality depth");
    engine.stop();
    await db.close();
  });

  it("deepReorg_beyondTheKeptSignedBytes_theRestAreFilled_andTheGapCloses", async () => {
    // Bound: only the last `keepFinal` final transactions keep their signed bytes; older lost nonces are filled.
    const { engine, wallet } = testEngine(t.node.url, t.key, { confirmations: 1, keepFinal: 2 });
    const reorgs: ReorgEvent[] = [];
    engine.on("reorged", (e: ReorgEvent) => reorgs.push(e));
    const before = await t.nonceOf(wallet.address);
    const point = await t.node.reorgPoint();
    const { nonces, hashes } = await sendTransfers(engine, SINK, 4);
    await t.mine();
    await t.mine();
    await Promise.all(nonces.map((n) => engine.wait(n, "before the reorg")));
    await t.node.reorg(point, { extra: 1 });

    await until(() => reorgs.length > 0, 10_000, "the engine to see the reorg");
    assert.deepEqual(reorgs[0].resent, [before + 2, before + 3]);
    assert.deepEqual(reorgs[0].filled, [before, before + 1]);
    assert.deepEqual(reorgs[0].hashes.slice(2), [hashes.get(before + 2)![0], hashes.get(before + 3)![0]]);
    await until(
      async () => (await t.node.provider.getTransactionCount(wallet.address, "pending")) === before + 4,
      10_000,
      "the re-broadcasts and fills",
    );
    const next = await sendTransfers(engine, SINK, 1);
    assert.deepEqual(next.nonces, [before + 4]);
    await t.mine();
    await t.mine();
    const receipts = await Promise.all([0, 1, 2, 3, 4].map((i) => engine.wait(before + i, "after")));
    // The filled nonces hold empty transfers to the executor itself; the kept ones their own bytes.
    for (const r of receipts.slice(0, 2)) assert.equal(r.to, wallet.address);
    assert.equal(receipts[2].hash, hashes.get(before + 2)![0]);
    assert.equal(await t.nonceOf(wallet.address), before + 5);
    engine.stop();
  });

  it("deepReorg_aProgramWhoseContractsStayGone_isUnregistered_taskFailsProgramReorged_theRestAreKept", async () => {
    const db = await memoryDb();
    const programs = new ProgramRegistry(db);
    // Only the newest final transaction keeps its bytes: the older deploy is filled, its contract stays gone.
    const { engine, wallet } = testEngine(t.node.url, t.key, { confirmations: 1, keepFinal: 1 });
    const checks: Promise<unknown>[] = [];
    const deps = { db, programs, logger: pino({ level: "silent" }), finalityBlocks: 64 };
    engine.on("reorged", (e: ReorgEvent) => checks.push(checkProgramsAfterReorg(deps, "31337", engine, e)));
    const point = await t.node.reorgPoint();
    const gone = await deployTiny(engine, wallet.address);
    const back = await deployTiny(engine, wallet.address);
    await t.mine();
    await t.mine();
    await Promise.all([gone.nonce, back.nonce].map((n) => engine.wait(n, "deploy")));
    const head = await t.node.provider.getBlockNumber();
    for (const [brand, d] of [
      ["gone", gone],
      ["back", back],
    ] as const) {
      await db.query(
        `INSERT INTO onboarding_tasks (id, owner, idempotency_key, request_hash, request, brand, chain_id, status, predicted, program_id)
         VALUES ($1, NULL, NULL, 'h', '{}', $2, '31337', 'succeeded', NULL, $2)`,
        [`task-${brand}`, brand],
      );
      const a = d.address;
      await programs.insert({
        chainId: "31337",
        brand,
        factory: a,
        points: a,
        collateralVault: a,
        pspVault: a,
        oracle: null,
        programFactory: null,
        deployTx: d.hash,
        blockNumber: head,
        metadata: { taskId: `task-${brand}` },
      });
    }
    await t.node.reorg(point, { extra: 1 });
    await until(() => checks.length > 0, 10_000, "the engine to see the reorg");
    await until(
      async () => (await t.node.provider.getTransactionCount(wallet.address, "pending")) === gone.nonce + 2,
      10_000,
      "the re-broadcast and the fill",
    );
    await t.mine();
    await t.mine();
    assert.deepEqual(await checks[0], { kept: ["back"], unregistered: ["gone"] });
    assert.equal(await programs.find("gone"), undefined);
    assert.equal((await programs.find("back"))?.points, back.address);
    const rows = await db.query<{ id: string; status: string; error: unknown; program_id: string | null }>(
      "SELECT id, status, error, program_id FROM onboarding_tasks ORDER BY id",
    );
    const task = (id: string) => rows.find((r) => r.id === id)!;
    assert.equal(task("task-back").status, "succeeded");
    assert.equal(task("task-gone").status, "failed");
    assert.equal(task("task-gone").program_id, null);
    const error =
      typeof task("task-gone").error === "string"
        ? JSON.parse(task("task-gone").error as string)
        : task("task-gone").error;
    assert.equal(error.code, "PROGRAM_REORGED");
    assert.equal(error.stage, "register");
    engine.stop();
    await db.close();
  });
});
