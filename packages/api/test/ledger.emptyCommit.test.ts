import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import type { Db, Queryable } from "../src/core/db/db.js";
import { LeaseLost, LedgerStore, type BlockRow, type RangeCommit } from "../src/core/ledger/store.js";
import type { LedgerEvent } from "../src/core/ledger/events.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";

const CHAIN = "31337";
const LEASE_MS = 60_000;
const hash = (n: number, fork = "a") => "0x" + fork.repeat(2) + n.toString(16).padStart(62, "0");
const block = (n: number, fork = "a"): BlockRow => ({ number: n, hash: hash(n, fork), time: 1_700_000_000 + n });

/** An empty range's commit: no event, no program announced, the cursor moving from `from` to `to`. */
const emptyRange = (from: number, to: number): RangeCommit => ({
  events: [],
  blocks: [block(to)],
  discovered: [],
  programIds: ["p1"],
  to: { number: to, hash: hash(to) },
  cursorFrom: { number: from, hash: hash(from) },
});

/** Every statement `db` runs, transactions' included. */
function counted(db: Db): { db: Db; statements: () => number } {
  let n = 0;
  const count = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      n++;
      return q.query(sql, params);
    },
    exec: (sql) => {
      n++;
      return q.exec(sql);
    },
  });
  const wrapped: Db = {
    ...db,
    ...count(db),
    transaction: (fn) =>
      db.transaction((tx) => {
        n += 2; // BEGIN and COMMIT
        return fn(count(tx));
      }),
  };
  return { db: wrapped, statements: () => n };
}

// A caught-up indexer commits an empty range every fullStepMs (packages/api/README.md#the-indexer):
// one statement, with the writes and the refusals of the transaction it replaces.
for (const backend of backends()) {
  describe(`ledger: an empty range's commit is one statement, all or nothing, on ${backend.name}`, () => {
    let db: Db;
    before(async () => (db = await freshDb(backend)));
    after(() => closeDb(backend, db));

    const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0];
    const cursor = async () =>
      one<{ n: string; h: string }>("SELECT block_number::text AS n, block_hash AS h FROM ledger_cursors");
    const leaseUntil = async () =>
      (await one<{ t: string }>("SELECT expires_at::text AS t FROM ledger_leases WHERE chain_id = $1", [CHAIN]))!.t;
    const blocks = async () =>
      (await db.query<{ n: string }>("SELECT block_number::text AS n FROM ledger_blocks ORDER BY block_number")).map(
        (r) => Number(r.n),
      );
    const syncedTo = async () =>
      Number((await one<{ n: string }>("SELECT synced_to::text AS n FROM ledger_programs"))!.n);

    beforeEach(async () => {
      for (const t of ["ledger_cursors", "ledger_leases", "ledger_blocks", "ledger_programs"])
        await db.query(`DELETE FROM ${t}`);
      await db.query(
        `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
           oracle, program_factory, from_block, synced_to)
         VALUES ($1, 'p1', 'registry', '0x01', '0x02', '0x03', '0x04', NULL, NULL, 1, 0)`,
        [CHAIN],
      );
    });

    /** A store whose cursor is at `at`, holding the lease, with `stored` blocks in ledger_blocks. */
    async function storeAt(at: number, stored: number[], events: LedgerEvent[] = []) {
      const store = new LedgerStore(db, { logger: pino({ level: "silent" }) });
      store.subscribe((e) => void events.push(e));
      assert.equal(await store.lease(CHAIN, "me", LEASE_MS), true);
      await store.initCursor(CHAIN, block(at));
      for (const n of stored) {
        await db.query("INSERT INTO ledger_blocks VALUES ($1, $2, $3, $4)", [CHAIN, n, hash(n), block(n).time]);
      }
      return store;
    }

    it("emptyRange_movesTheCursor_raisesSyncedTo_storesTheHeader_prunesOldBlocks_inOneStatement", async () => {
      const events: LedgerEvent[] = [];
      const from = 20_000;
      const to = 20_003;
      // 9,999: one under the 10,000 kept below `to`; 10,003 is the first kept. Finalized: the newest
      // stored at or below the cursor less 64, 19,000 before the move and 19,938 after it.
      await storeAt(from, [9_999, 10_003, 19_000, 19_938], events);
      const before = await leaseUntil();
      const { db: countedDb, statements } = counted(db);
      const store = new LedgerStore(countedDb, { logger: pino({ level: "silent" }) });
      store.subscribe((e) => void events.push(e));
      await store.commit(CHAIN, "me", LEASE_MS, emptyRange(from, to));
      assert.equal(statements(), 1);
      assert.deepEqual(await cursor(), { n: String(to), h: hash(to) });
      assert.equal(await syncedTo(), to);
      assert.deepEqual(await blocks(), [10_003, 19_000, 19_938, from, to]);
      assert.ok((await leaseUntil()) > before, "the lease is renewed");
      assert.deepEqual(events, [
        { type: "block", chainId: CHAIN, block: { number: to, hash: hash(to) }, events: 0 },
        { type: "finalized", chainId: CHAIN, block: { number: 19_938, hash: hash(19_938) } },
      ]);
      events.length = 0;
      await store.commit(CHAIN, "me", LEASE_MS, emptyRange(to, to + 1));
      assert.deepEqual(
        events.map((e) => e.type),
        ["block"],
        "the same finalized block is not announced again",
      );
    });

    it("emptyRange_finalizedAnnounced_onlyAboveTheOneBeforeTheCommit", async () => {
      const events: LedgerEvent[] = [];
      // Cursor at 200: finalized before is 100 (<= 136); after the move to 300 it is 236.
      const store = await storeAt(200, [100, 236], events);
      await store.commit(CHAIN, "me", LEASE_MS, emptyRange(200, 300));
      assert.deepEqual(events.at(-1), { type: "finalized", chainId: CHAIN, block: { number: 236, hash: hash(236) } });
      events.length = 0;
      // A move that leaves the finalized block where it was announces none.
      await store.commit(CHAIN, "me", LEASE_MS, emptyRange(300, 301));
      assert.deepEqual(
        events.map((e) => e.type),
        ["block"],
      );
    });

    it("emptyRange_leaseTakenByAnotherInstance_isLeaseLost_andWritesNothing", async () => {
      const store = await storeAt(500, [400]);
      await db.query("UPDATE ledger_leases SET owner = 'other' WHERE chain_id = $1", [CHAIN]);
      const lease = await leaseUntil();
      await assert.rejects(store.commit(CHAIN, "me", LEASE_MS, emptyRange(500, 510)), LeaseLost);
      assert.deepEqual(await cursor(), { n: "500", h: hash(500) });
      assert.deepEqual(await blocks(), [400, 500]);
      assert.equal(await syncedTo(), 0);
      assert.equal(await leaseUntil(), lease, "the other instance's lease is untouched");
    });

    it("emptyRange_cursorNotWhereTheIndexerLeftIt_isLeaseLost_andWritesNothing_notEvenTheLease", async () => {
      const store = await storeAt(500, []);
      const lease = await leaseUntil();
      // Another writer moved the cursor to a block of another fork at the same height.
      await db.query("UPDATE ledger_cursors SET block_hash = $2 WHERE chain_id = $1", [CHAIN, hash(500, "b")]);
      await assert.rejects(store.commit(CHAIN, "me", LEASE_MS, emptyRange(500, 510)), LeaseLost);
      assert.deepEqual(await cursor(), { n: "500", h: hash(500, "b") });
      assert.deepEqual(await blocks(), [500]);
      assert.equal(await syncedTo(), 0);
      assert.equal(await leaseUntil(), lease);
    });
  });
}
