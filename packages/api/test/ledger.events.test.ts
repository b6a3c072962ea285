import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, type Db } from "../src/index.js";
import type { LedgerEvent } from "../src/core/ledger/events.js";
import { LedgerIndexer } from "../src/workers/ledger/indexer.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";
import { indexerOn, TEST_LEDGER, vaultAs } from "./helpers/ledger.js";
import { captureLogs } from "./helpers/logs.js";
import { startReceiver } from "./helpers/receiver.js";
import { startApi, type TestApi } from "./helpers/service.js";

const sp = (n: number) => parseUnits(String(n), 18);
const CHAIN = "31337";
/** LEDGER_MAX_REORG_DEPTH in these tests: the finalized block trails the cursor by 2. */
const DEPTH = 2;

// The ledger's typed events (docs/architecture.md#the-api-in-three-layers): one `block` per
// committed range, `finalized` as the block LEDGER_MAX_REORG_DEPTH below the cursor advances,
// `reorg` with the common ancestor; heard by subscribers after the commit, on PGlite and PostgreSQL.
for (const backend of backends()) {
  describe(`ledger: typed block, finalized and reorg events on ${backend.name}`, () => {
    let node: DevNode;
    let db: Db;
    let program: ProgramRecord;
    let campaignId: string;

    before(async () => {
      node = await startNode();
      db = await freshDb(backend);
      let usdc: string;
      ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
      await new ProgramRegistry(db).insert(program);
      ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    });
    after(async () => {
      await closeDb(backend, db);
      await node?.stop();
    });

    const hashOf = async (n: number) => (await node.provider.getBlock(n))!.hash!;
    const ref = async (n: number) => ({ number: n, hash: await hashOf(n) });
    const block = async (n: number, events: number): Promise<LedgerEvent> => ({
      type: "block",
      chainId: CHAIN,
      block: await ref(n),
      events,
    });
    const finalized = async (n: number): Promise<LedgerEvent> => ({
      type: "finalized",
      chainId: CHAIN,
      block: await ref(n),
    });
    /** Ledger events stored in blocks [from, to]. */
    const storedIn = async (from: number, to: number) =>
      Number(
        (
          await db.query<{ n: string }>(
            "SELECT count(*)::text AS n FROM ledger_events WHERE chain_id = $1 AND block_number BETWEEN $2 AND $3",
            [CHAIN, from, to],
          )
        )[0]!.n,
      );
    const mint = async (memo: string) =>
      (await (
        await vaultAs(program, actors(node.provider).brand).mint(
          campaignId,
          actors(node.provider).alice.address,
          sp(1),
          memo,
        )
      ).wait())!;
    const heard = (indexer: LedgerIndexer) => {
      const events: LedgerEvent[] = [];
      indexer.store.subscribe((e) => void events.push(e));
      return events;
    };

    it("oneBlockEventPerCommittedRange_withItsEndBlockAndStoredEventCount_finalizedTrailsByTheDepth_throughStoredBlocks", async (t) => {
      // Ranges of one block: every block is stored, so finalized is exactly DEPTH below the cursor.
      const one = indexerOn(db, node.url, { range: 1, maxReorgDepth: DEPTH });
      const events = heard(one);
      try {
        await one.catchUp(CHAIN);
      } finally {
        // Gives the chain's lease back for the next indexer.
        await one.stop();
      }
      const start = program.blockNumber! - 1;
      const head = (await one.store.cursor(CHAIN))!.number;
      assert.equal(head, await node.provider.getBlockNumber());
      const expected: LedgerEvent[] = [];
      for (let n = start + 1; n <= head; n++) {
        expected.push(await block(n, await storedIn(n, n)));
        // The first cursor (start) is stored: finalized from the commit that puts it DEPTH below.
        if (n - DEPTH >= start) expected.push(await finalized(n - DEPTH));
      }
      assert.deepEqual(events, expected);
      assert.ok(
        events.some((e) => e.type === "block" && e.events > 0),
        "the deploy's and the campaign's events were counted",
      );
      assert.equal(
        events.reduce((s, e) => s + (e.type === "block" ? e.events : 0), 0),
        await storedIn(0, head),
      );

      // Ranges of three: one block event per range (its last block); finalized is the newest
      // block stored at or below cursor - DEPTH (a range's end or a block with events).
      const c = head;
      await node.mine(1); // c+1: empty, not stored
      const minted = await mint("in-range"); // c+2: stored (events)
      assert.equal(minted.blockNumber, c + 2);
      await node.mine(4); // c+3 (a range's end), c+4, c+5, c+6 (a range's end)
      const three = indexerOn(db, node.url, { range: 3, maxReorgDepth: DEPTH });
      t.after(() => three.stop());
      const more = heard(three);
      await three.catchUp(CHAIN);
      const k = await storedIn(c + 2, c + 2);
      assert.ok(k > 0);
      assert.deepEqual(more, [
        await block(c + 3, k),
        await finalized(c), // c+1 is not stored: the newest stored at or below it is c
        await block(c + 6, 0),
        await finalized(c + 3), // c+4 is not stored either
      ]);
      assert.equal(await storedIn(c + 1, c + 6), k);
    });

    it("aReorg_emitsReorgWithTheExactAncestor_thenTheReplayedBlocks_andFinalizedNeverGoesBack", async (t) => {
      const indexer = indexerOn(db, node.url, { range: 1, maxReorgDepth: DEPTH });
      t.after(() => indexer.stop());
      const events = heard(indexer);
      // DEPTH blocks indexed one by one first: every block below the point is stored.
      await node.mine(DEPTH);
      await indexer.catchUp(CHAIN);
      events.length = 0;
      const point = await node.reorgPoint();
      const p = point.block;
      const ancestor = await ref(p);
      const r = await mint("fork-a"); // p+1
      assert.equal(r.blockNumber, p + 1);
      await node.mine(1); // p+2
      await indexer.catchUp(CHAIN);
      const k = await storedIn(p + 1, p + 1);
      assert.ok(k > 0);
      assert.deepEqual(events, [
        await block(p + 1, k),
        await finalized(p + 1 - DEPTH),
        await block(p + 2, 0),
        await finalized(p + 2 - DEPTH),
      ]);

      events.length = 0;
      // p+1 and p+2 replaced by empty blocks, and one more: p+3.
      await node.reorg(point, { extra: 1 });
      await indexer.catchUp(CHAIN);
      assert.deepEqual(events, [
        { type: "reorg", chainId: CHAIN, ancestor },
        await block(p + 1, 0),
        // p+1-DEPTH and p+2-DEPTH were announced before the reorg: not again.
        await block(p + 2, 0),
        await block(p + 3, 0),
        await finalized(p + 3 - DEPTH),
      ]);
      assert.equal(await storedIn(p + 1, p + 3), 0, "the fork's events went");
    });

    it("aSubscriberThatThrowsOrRejects_isLogged_andIndexingGoesOn_andAnUnsubscribedOneHearsNothing", async (t) => {
      const logs = captureLogs();
      const chain = {
        chainId: 31337,
        name: "Hardhat",
        rpcUrl: node.url,
        explorerUrl: null,
        testnet: true,
        blockTimeMs: 1000,
      };
      const indexer = new LedgerIndexer(db, [chain], logs.logger("error"), {
        ...TEST_LEDGER,
        range: 1,
        maxReorgDepth: DEPTH,
      });
      t.after(() => indexer.stop());
      await indexer.catchUp(CHAIN);
      indexer.store.subscribe(() => {
        throw new Error("subscriber broke");
      });
      indexer.store.subscribe(async () => {
        throw new Error("subscriber rejected");
      });
      const events: LedgerEvent[] = [];
      const unsubscribe = indexer.store.subscribe((e) => void events.push(e));

      const r = await mint("despite");
      await indexer.catchUp(CHAIN);
      const k = await storedIn(r.blockNumber, r.blockNumber);
      assert.deepEqual(events, [await block(r.blockNumber, k), await finalized(r.blockNumber - DEPTH)]);
      assert.deepEqual(await indexer.store.cursor(CHAIN), await ref(r.blockNumber));
      await sleep(10); // the rejection is logged a tick later
      const failed = logs.lines.map((l) => JSON.parse(l) as { msg: string; event: string; err: { message: string } });
      assert.deepEqual(
        failed.map((l) => [l.msg, l.event, l.err.message]),
        [
          ["ledger event subscriber failed", "block", "subscriber broke"],
          ["ledger event subscriber failed", "finalized", "subscriber broke"],
          ["ledger event subscriber failed", "block", "subscriber rejected"],
          ["ledger event subscriber failed", "finalized", "subscriber rejected"],
        ],
      );

      // The running loop indexes on as well, and an unsubscribed function hears nothing more.
      unsubscribe();
      const later = await mint("later");
      indexer.start();
      const deadline = Date.now() + 20_000;
      while ((await indexer.store.cursor(CHAIN))!.number < later.blockNumber) {
        assert.ok(Date.now() < deadline, "the indexer stopped");
        await sleep(20);
      }
      assert.equal(await storedIn(later.blockNumber, later.blockNumber), k);
      assert.equal(events.length, 2);
    });
  });
}

// The service wires the webhook dispatcher to the ledger's `block` events (src/service.ts): a
// freshly indexed event is delivered without waiting for the dispatcher's poll.
describe("ledger: the webhook dispatcher hears the ledger's block events", () => {
  let node: DevNode;
  let api: TestApi;
  let program: ProgramRecord;
  let campaignId: string;

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    api = await startApi(node.url, {
      LEDGER: "inline",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "20",
      WEBHOOK_ALLOW_PRIVATE: "1",
      // The longest poll there is: a delivery within seconds can only come from a wake-up.
      WEBHOOK_POLL_MS: "60000",
    });
    await api.service.ctx.programs.insert(program);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  async function until(cond: () => Promise<boolean> | boolean, ms: number) {
    const deadline = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error("timed out");
      await sleep(20);
    }
  }

  it("aFreshlyIndexedEvent_isDeliveredAtOnce_notAtTheNextPoll", async () => {
    const head = await node.provider.getBlockNumber();
    const ledgerBlock = async () =>
      Number(
        (
          await api.service.ctx.db.query<{ n: string }>(
            "SELECT synced_to::text AS n FROM ledger_programs WHERE program_id = 'acme'",
          )
        )[0]?.n ?? -1,
      );
    await until(async () => (await ledgerBlock()) >= head, 20_000);
    const auth = { authorization: `Bearer ${(await api.service.ctx.keys.create("hooks")).key}` };
    const rx = await startReceiver();
    try {
      const res = (await api.call(
        "POST",
        "/api/v1/ledger/webhooks",
        { webhookUrl: rx.url, eventTypes: ["PSPMinted"] },
        auth,
      )) as {
        status: number;
        body: { data: { secret: string } };
      };
      assert.equal(res.status, 201);
      rx.state.secret = res.body.data.secret;
      const { brand, alice } = actors(node.provider);
      const r = (await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(2), "at-once")).wait())!;
      const t0 = Date.now();
      await until(() => rx.state.accepted.length === 1, 15_000);
      assert.ok(Date.now() - t0 < 15_000);
      assert.deepEqual(
        rx.state.accepted.map((d) => [d.type, d.event, d.blockNumber, d.data.args.metadata]),
        [["ledger.event", "PSPMinted", r.blockNumber, "at-once"]],
      );
    } finally {
      await rx.close();
    }
  });
});
