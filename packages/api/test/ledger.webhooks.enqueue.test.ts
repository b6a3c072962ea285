import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { migrate, openDb, type Db } from "../src/index.js";
import type { Queryable } from "../src/core/db/db.js";
import { enqueue, insertSubscription } from "../src/core/webhooks/store.js";

const addEvent = (db: Queryable, block: number) =>
  db.query(
    `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
       program_id, contract, event, args, campaign_id, accounts)
     VALUES ('31337', $1::bigint, 0, '0xh', 1700000000, '0xt', '0x04', 'acme', 'pspVault', 'PSPMinted', '{}', '0xc1', '{}')`,
    [block],
  );

// Matching ledger events into deliveries (docs/architecture.md#webhooks) while the indexer
// commits: a block committed between the matcher's reads is matched by its next call.
describe("ledger: webhook matching races the indexer", () => {
  let db: Db;
  before(async () => {
    db = await openDb({ dataDir: "memory://" });
    await migrate(db);
    await db.query(
      `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
         from_block, synced_to) VALUES ('31337', 'acme', 'registry', '0x01', '0x02', '0x03', '0x04', 1, 10)`,
    );
    for (let b = 5; b <= 10; b++) await addEvent(db, b);
  });
  after(() => db?.close());

  it("aBlockCommittedWhileEventsAreMatched_isMatchedByTheNextPass_notSkipped", async () => {
    const sub = await insertSubscription(db, {
      owner: "k",
      programId: "acme",
      chainId: "31337",
      url: "http://127.0.0.1:9/hooks",
      eventTypes: ["*"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    // The indexer commits block 11 (its event and the program's ledger block) right after the
    // matcher has read the events.
    let committed = false;
    const racing: Queryable = {
      exec: (sql) => db.exec(sql),
      async query<T>(sql: string, params?: unknown[]) {
        const rows = await db.query<T>(sql, params);
        if (!committed && sql.includes("FROM ledger_events")) {
          committed = true;
          await db.transaction(async (tx) => {
            await addEvent(tx, 11);
            await tx.query("UPDATE ledger_programs SET synced_to = 11 WHERE program_id = 'acme'");
          });
        }
        return rows;
      },
    };
    assert.equal(await enqueue(racing, sub), 6);
    const [again] = await db.query<typeof sub>("SELECT * FROM webhook_subscriptions WHERE id = $1", [sub.id]);
    assert.equal(await enqueue(db, again!), 1);
    const blocks = await db.query<{ b: string }>(
      "SELECT block_number::text AS b FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY seq",
      [sub.id],
    );
    assert.deepEqual(
      blocks.map((r) => Number(r.b)),
      [5, 6, 7, 8, 9, 10, 11],
    );
  });
});
