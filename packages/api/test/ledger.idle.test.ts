import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { actors, deployProgram, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, type Db } from "../src/index.js";
import type { LedgerIndexer } from "../src/workers/ledger/indexer.js";
import { MockStablecoin__factory } from "@points/contracts";
import type { RpcProxy } from "./helpers/rpcProxy.js";
import { indexerOn, vaultAs } from "./helpers/ledger.js";
import { idleLedgerFixture, isHeadRequest, type IdleLedgerFixture } from "./helpers/idleLedger.js";

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Counts calls of one of the indexer's store methods. */
function countCalls(
  indexer: LedgerIndexer,
  method: "programs" | "cursor" | "lease" | "commit" | "followRegistered" | "buildPendingState",
): { n: number } {
  const count = { n: 0 };
  const store = indexer.store as unknown as Record<string, (...args: unknown[]) => unknown>;
  const real = store[method]!.bind(indexer.store);
  store[method] = (...args: unknown[]) => (count.n++, real(...args));
  return count;
}

/** Counts the indexer's full steps (calls of `step`). */
function countFullSteps(indexer: LedgerIndexer): { n: number } {
  const count = { n: 0 };
  const real = indexer.step.bind(indexer);
  indexer.step = (...args) => (count.n++, real(...args));
  return count;
}

// An idle indexer (packages/api/README.md#the-indexer): while the head does not move, a pass asks
// the node for its head and nothing else; a full step (programs, cursor) runs when the head
// moves, or at the latest every eight polls; empty blocks are committed at most once per eight
// polls, the lease renewed once per third of it.
describe("ledger: an idle indexer asks for the head and nothing else", () => {
  let f: IdleLedgerFixture;
  let node: DevNode;
  let db: Db;
  let proxy: RpcProxy;
  let program: ProgramRecord;
  let usdc: string;
  let campaignId: string;

  before(async () => {
    f = await idleLedgerFixture();
    ({ node, db, proxy, program, usdc, campaignId } = f);
  });
  after(() => f?.close());

  const cursorAt = () => f.cursorAt();

  it("quietChain_fullStepsAtMostEveryEightPolls_eachPassBetweenIsOneHeadRequest", async (t) => {
    // 50 ms polls: a full step at most every 400 ms, however many passes run between.
    const indexer = indexerOn(db, proxy.url, { pollMs: 50, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const steps = countFullSteps(indexer);
    indexer.start();
    const head = await node.provider.getBlockNumber();
    await until("the ledger reaches the head", async () => (await cursorAt()) === head);
    proxy.reset();
    const before = steps.n;
    const started = Date.now();
    await sleep(2_000);
    const elapsed = Date.now() - started;
    const full = steps.n - before;
    const calls = proxy.calls;
    const heads = calls.filter(isHeadRequest).length;
    assert.ok(full >= 1, "a quiet chain still gets a full step (its lease renewed) within the window");
    assert.ok(full <= Math.floor(elapsed / 400) + 1, `${full} full steps in ${elapsed} ms: at most one per 400 ms`);
    // Each full step reads the head and the block at the cursor; a skipped pass only the head.
    // (A step already running when the window opened may read its block inside it: one more.)
    const blocks = calls.filter((c) => c.method === "eth_getBlockByNumber" && !isHeadRequest(c)).length;
    assert.ok(blocks >= full - 1 && blocks <= full + 1, `${blocks} block reads for ${full} full steps`);
    assert.deepEqual(
      calls.map((c) => c.method).filter((m) => m !== "eth_getBlockByNumber"),
      [],
      "no eth_getLogs and nothing else while nothing happens",
    );
    assert.ok(heads > full, `passes between full steps ask for the head (${heads} heads, ${full} full steps)`);
  });

  it("headMoves_theNextPassIndexesIt_withoutWaitingForTheFullStep", async (t) => {
    // 500 ms polls: a full step of a quiet chain is due only every 4 s; the new block must not wait for it.
    const indexer = indexerOn(db, proxy.url, { pollMs: 500, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const steps = countFullSteps(indexer);
    indexer.start();
    await until(
      "the ledger reaches the head",
      async () => (await cursorAt()) === (await node.provider.getBlockNumber()),
    );
    // Quiet now: wait for a pass that skipped (a head request with no full step after the last one).
    const quietSince = steps.n;
    proxy.reset();
    await until("a skipped pass", () => proxy.calls.filter(isHeadRequest).length >= 2);
    assert.equal(steps.n, quietSince, "the passes since were skipped");
    const { brand, alice } = actors(node.provider);
    const sent = Date.now();
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("3", 18), "")
    ).wait();
    await until("the mint is indexed", async () => (await cursorAt()) >= receipt!.blockNumber);
    // Well under the 4 s a time-based full step would have taken (two polls, with room for a loaded machine).
    assert.ok(Date.now() - sent < 3_500, `indexed ${Date.now() - sent} ms after the block`);
    const minted = await db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash]);
    assert.equal(minted.length, 1);
  });

  it("chainKeepsItsBlockTime_atMostTwoHeadRequestsPerBlockAndFullStep_notOnePerPoll_andEveryBlockIsIndexed", async (t) => {
    // 100 ms polls on a chain configured for 1 s blocks (a full step every 800 ms), mined every 1 s:
    // a poll per 100 ms would ask for the head about ten times per block.
    const indexer = indexerOn(db, proxy.url, { pollMs: 100, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    indexer.start();
    await until(
      "the ledger reaches the head",
      async () => (await cursorAt()) === (await node.provider.getBlockNumber()),
    );
    // A first block after a pause: the indexer times the chain's moves from it.
    await sleep(1_000);
    await node.mine(1);
    await sleep(200);
    proxy.reset();
    const started = Date.now();
    const BLOCKS = 4;
    for (let i = 0; i < BLOCKS; i++) {
      await sleep(800);
      await node.mine(1);
      await sleep(200);
    }
    const elapsed = Date.now() - started;
    const heads = proxy.calls.filter(isHeadRequest).length;
    // Per block: one request a block time less a quarter poll after the last move, one a poll later
    // when that finds nothing (ledger.pacing counts the rule itself on a mocked clock);
    // plus the full steps and the commits of empty blocks (one each per 800 ms, each reads the
    // head), and one in flight at each end.
    const most = 2 * BLOCKS + 2 * Math.floor(elapsed / 800) + 3;
    assert.ok(heads <= most, `${heads} head requests over ${elapsed} ms and ${BLOCKS} blocks (at most ${most})`);
    const head = await node.provider.getBlockNumber();
    await until("every block is indexed", async () => (await cursorAt()) === head);
  });

  it("emptyBlocks_areCommittedAtMostOncePerEightPolls_theLeaseRenewedOncePerThird_andTheCursorStillReachesTheHead", async (t) => {
    // 50 ms polls, so at most one commit of empty blocks per 400 ms; a 60 s lease renewed every 20 s.
    const indexer = indexerOn(db, proxy.url, { pollMs: 50, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    indexer.start();
    await until(
      "the ledger reaches the head",
      async () => (await cursorAt()) === (await node.provider.getBlockNumber()),
    );
    const commits = countCalls(indexer, "commit");
    const leases = countCalls(indexer, "lease");
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      await node.mine(1);
      await sleep(100);
    }
    const elapsed = Date.now() - started;
    const head = await node.provider.getBlockNumber();
    await until("the empty blocks are committed", async () => (await cursorAt()) === head);
    const all = Date.now() - started;
    assert.ok(commits.n >= 1, "the empty blocks are committed");
    assert.ok(commits.n <= Math.floor(all / 400) + 1, `${commits.n} commits of 20 empty blocks in ${all} ms`);
    assert.ok(commits.n < 20, `${commits.n} commits for 20 blocks mined over ${elapsed} ms`);
    assert.equal(leases.n, 0, "the lease is renewed once per third of it (20 s here), not on every step");
  });

  it("headMoved_thePassReadsTheHeadOnce_theQuietCheckAndTheStepShareIt", async (t) => {
    // Not started: passes run one at a time here. Long polls and lease: no time-based full step.
    const indexer = indexerOn(db, proxy.url, { pollMs: 60_000, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    while (await pass()) {
      /* until a pass finds nothing to do: the chain is quiet at the head */
    }
    proxy.reset();
    assert.equal(await pass(), false, "a quiet chain");
    assert.deepEqual(proxy.calls.map(isHeadRequest), [true], "a quiet pass is one head request");
    await node.mine(1);
    proxy.reset();
    await pass();
    assert.equal(
      proxy.calls.filter(isHeadRequest).length,
      1,
      "the head that moved is read once, by the quiet check, and the step uses it",
    );
  });

  it("leaseHeld_stepsOnNewBlocksReadNothingFromTheDatabase_theProgramsAndCursorAreKept", async (t) => {
    // Not started: passes run one at a time. Long polls and lease: no time-based full step.
    const indexer = indexerOn(db, proxy.url, { pollMs: 60_000, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    while (await pass()) {
      /* until the chain is quiet at the head */
    }
    const reads = (["programs", "cursor", "lease", "followRegistered", "buildPendingState"] as const).map(
      (m) => [m, countCalls(indexer, m)] as const,
    );
    for (let i = 0; i < 5; i++) {
      await node.mine(1);
      await pass(); // the first empty block is committed (this indexer has made no commit yet), the rest wait
    }
    assert.deepEqual(
      reads.map(([m, c]) => [m, c.n]),
      reads.map(([m]) => [m, 0]),
      "five steps on five new blocks: no lease, registry, programs or cursor read",
    );
    // A block with an event is still indexed, and the kept cursor moves with the commit.
    const { brand, alice } = actors(node.provider);
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("1", 18), "")
    ).wait();
    while (await pass()) {
      /* until indexed */
    }
    assert.equal(await cursorAt(), receipt!.blockNumber);
    assert.equal((await db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash])).length, 1);
    await node.mine(1);
    await pass();
    assert.deepEqual(
      reads.map(([m, c]) => [m, c.n]),
      reads.map(([m]) => [m, 0]),
    );
  });

  it("blockTheHeaderCannotClear_soonAfterACommit_isOneGetLogs_noOtherHeaderRead", async (t) => {
    // Not started: passes run one at a time. 60 s polls and lease: a commit holds for 8 polls' or a
    // third of the lease's time (20 s), longer than this test. Blooms not trusted: a block with a
    // transaction may hold a log of ours (empty blocks are covered by the head's header alone:
    // ledger.quietTip).
    const indexer = indexerOn(db, proxy.url, { pollMs: 60_000, leaseMs: 60_000 }, { logsBloom: false });
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    const commits = countCalls(indexer, "commit");
    while (await pass()) {
      /* until the chain is quiet at the head */
    }
    await node.mine(1);
    await pass(); // commits the empty block if this indexer has made no commit yet
    assert.ok(commits.n >= 1, "a commit was made");
    const committed = commits.n;
    const cursor = await cursorAt();
    const { brand, alice } = actors(node.provider);
    for (let i = 0; i < 3; i++) {
      await (await MockStablecoin__factory.connect(usdc, brand).mint(alice.address, 1n)).wait();
      proxy.reset();
      assert.equal(await pass(), false, "nothing to do");
      // (The endpoint pool's own chain id check, every 10 s, may fall inside a pass: not the indexer's.)
      const calls = proxy.calls.filter((c) => c.method !== "eth_chainId");
      assert.deepEqual(
        calls.map((c) => (isHeadRequest(c) ? "head" : c.method)),
        ["head", "eth_getLogs"],
        `block ${i + 1} without a log of ours`,
      );
    }
    assert.equal(commits.n, committed, "the blocks wait for a later commit");
    assert.equal(await cursorAt(), cursor);
    // A block with an event is read with its headers and committed at once, the others with it.
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("1", 18), "")
    ).wait();
    proxy.reset();
    assert.equal(await pass(), true);
    assert.ok(proxy.methods().includes("eth_getBlockByNumber"), "the cursor's and the range's headers are read");
    assert.equal(await cursorAt(), receipt!.blockNumber);
    assert.equal((await db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash])).length, 1);
  });

  it("eventInEveryBlock_eachRangesLogsAreAskedForOnce_andTheTwoHeadersBeforeThemInOneRequest", async (t) => {
    const indexer = indexerOn(db, proxy.url, { pollMs: 60_000, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    while (await pass()) {
      /* until the chain is quiet at the head */
    }
    await node.mine(1);
    await pass(); // a commit, so that empty ranges may wait
    const { brand, alice } = actors(node.provider);
    const getLogs = () => proxy.methods().filter((m) => m === "eth_getLogs").length;
    for (let i = 0; i < 3; i++) {
      const receipt = await (
        await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("1", 18), "")
      ).wait();
      proxy.reset();
      assert.equal(await pass(), true);
      assert.equal(await cursorAt(), receipt!.blockNumber);
      // The first event after quiet blocks is found by the logs-only probe, then read again after
      // the range's end header; once a read found a log, the next range is read at once.
      assert.equal(getLogs(), i === 0 ? 2 : 1, `eth_getLogs for event block ${i + 1}`);
      if (i === 0) continue;
      // The head, the cursor's and the range's end headers in one request, the logs, the end again.
      const requests = proxy.requests.map((r) => r.methods).filter((m) => !m.includes("eth_chainId"));
      assert.deepEqual(
        requests,
        [
          ["eth_getBlockByNumber"],
          ["eth_getBlockByNumber", "eth_getBlockByNumber"],
          ["eth_getLogs"],
          ["eth_getBlockByNumber"],
        ],
        `HTTP requests for event block ${i + 1}`,
      );
    }
  });

  it("reorgUnderTheCursorWhileEmptyBlocksWait_isRolledBackByTheNextCommit_atMostEightPollsLater", async (t) => {
    // 50 ms polls: empty blocks wait at most 400 ms after a commit, then a step reads the cursor's header.
    const indexer = indexerOn(db, proxy.url, { pollMs: 50, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    while (await pass()) {
      /* until the chain is quiet at the head */
    }
    const snapshot = await node.snapshot();
    const { brand, alice } = actors(node.provider);
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("1", 18), "")
    ).wait();
    while (await pass()) {
      /* until indexed */
    }
    const minted = () => db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash]);
    assert.equal((await minted()).length, 1);
    // The mint's block replaced by two empty ones: the cursor's block is no longer on the chain.
    await node.revert(snapshot);
    await node.mine(2);
    await pass();
    await sleep(450);
    while (await pass()) {
      /* the rollback, then the empty blocks */
    }
    assert.deepEqual(await minted(), [], "the reorged mint is gone");
    assert.equal(await cursorAt(), await node.provider.getBlockNumber());
  });

  it("programRegisteredOnAQuietChain_isFollowedAtTheNextFullStep_withNoNewBlock", async (t) => {
    const indexer = indexerOn(db, proxy.url, { pollMs: 50, leaseMs: 60_000 });
    t.after(() => indexer.stop());
    indexer.start();
    await until(
      "the ledger reaches the head",
      async () => (await cursorAt()) === (await node.provider.getBlockNumber()),
    );
    const { record: other } = await deployProgram(node.provider, "other");
    await until(
      "the ledger reaches the head",
      async () => (await cursorAt()) === (await node.provider.getBlockNumber()),
    );
    // Registered after its blocks were indexed, with no block since: only a full step finds it.
    await new ProgramRegistry(db).insert(other);
    await until(
      "the new program is followed and caught up",
      async () =>
        (
          await db.query<{ n: string }>("SELECT synced_to::text AS n FROM ledger_programs WHERE program_id = 'other'")
        )[0]?.n === String(await cursorAt()),
    );
  });
});
