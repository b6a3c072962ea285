import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { type Db } from "../src/index.js";
import type { Queryable } from "../src/core/db/db.js";
import { WebhookDispatcher } from "../src/workers/webhooks/dispatcher.js";
import { deliveryId, insertSubscription, onRollback } from "../src/core/webhooks/store.js";
import { startReceiver } from "./helpers/receiver.js";
import { memoryDb } from "./helpers/db.js";

const hashOf = (b: number, fork: string) => `0x${fork}${b.toString(16).padStart(63, "0")}`;

const addEvent = (db: Queryable, block: number, fork: string) =>
  db.query(
    `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
       program_id, contract, event, args, campaign_id, accounts)
     VALUES ('31337', $1::bigint, 2, $2, 1700000000, $2, '0x0000000000000000000000000000000000000004', 'ident', 'pspVault', 'PSPMinted', '{}', '0xc1', '{}')`,
    [block, hashOf(block, fork)],
  );

/** What the ledger does on a reorg (or a node of another chain behind the URL): roll back above `ancestor`. */
const rollBack = (db: Db, ancestor: number) =>
  db.transaction(async (tx) => {
    await tx.query("DELETE FROM ledger_events WHERE chain_id = '31337' AND block_number > $1", [ancestor]);
    await tx.query("UPDATE ledger_programs SET synced_to = $1 WHERE program_id = 'ident'", [ancestor]);
    await onRollback(tx, "31337", ancestor);
  });

const indexTo = (db: Db, block: number) =>
  db.query("UPDATE ledger_programs SET synced_to = $1 WHERE program_id = 'ident'", [block]);

// docs/architecture.md#webhooks: a delivery's webhook-id derives from the event's identity
// (subscription, chain, block, log index), so receivers that deduplicate by id count an event once.
describe("webhooks: ids follow the event's identity", () => {
  let db: Db;
  before(async () => {
    db = await memoryDb();
    await db.query(
      `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
         from_block, synced_to) VALUES ('31337', 'ident', 'registry', '0x01', '0x02', '0x03', '0x04', 1, 1)`,
    );
  });
  after(() => db?.close());

  it("theSameEventIndexedAgain_keepsItsWebhookId_itsRemovalHasItsOwnStableId_andAnotherForksEventAnother", async (t) => {
    const rx = await startReceiver();
    t.after(() => rx.close());
    const s = await insertSubscription(db, {
      owner: "key-ident",
      programId: "ident",
      chainId: "31337",
      url: rx.url,
      eventTypes: ["*"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    rx.state.secret = s.secret;
    const dispatcher = new WebhookDispatcher(db, pino({ level: "silent" }), {
      allowPrivate: true,
      timeoutMs: 10_000,
      retryMinMs: 10,
      retryWindowMs: 600_000,
      pollMs: 20,
      leaseMs: 30_000,
      concurrency: 4,
      ownerConcurrency: 2,
    });
    t.after(() => dispatcher.stop());

    // Block 3 of fork "a": delivered.
    await addEvent(db, 3, "a");
    await indexTo(db, 5);
    await dispatcher.pass();
    const first = deliveryId({
      subscription: s.id,
      chainId: "31337",
      blockNumber: 3,
      blockHash: hashOf(3, "a"),
      logIndex: 2,
    });
    assert.deepEqual(rx.state.ids, [first]);

    // Rolled back (another chain served behind the URL): a removal under its own id.
    await rollBack(db, 2);
    await dispatcher.pass();
    const removal = deliveryId({ removes: first });
    assert.notEqual(removal, first);
    assert.deepEqual(rx.state.ids, [first, removal]);
    assert.equal(rx.state.accepted[1]!.type, "ledger.event.removed");
    assert.equal(rx.state.accepted[1]!.data.removedDelivery, first);

    // The right chain again: the ledger indexes the same event, which goes out under its first id.
    await addEvent(db, 3, "a");
    await indexTo(db, 5);
    await dispatcher.pass();
    assert.deepEqual(rx.state.ids, [first, removal, first]);
    assert.deepEqual(rx.state.duplicates, [first]);

    // Removed once more: the same removal id, sent again; then a reorg puts another event at the
    // same position (block 3 of fork "b"), which is another event with another id.
    await rollBack(db, 2);
    await addEvent(db, 3, "b");
    await indexTo(db, 5);
    await dispatcher.pass();
    const other = deliveryId({
      subscription: s.id,
      chainId: "31337",
      blockNumber: 3,
      blockHash: hashOf(3, "b"),
      logIndex: 2,
    });
    assert.notEqual(other, first);
    assert.deepEqual(rx.state.ids, [first, removal, first, removal, other]);
    // Every request verified with the subscription's secret (Standard Webhooks).
    assert.equal(rx.state.badSignatures, 0);
    const rows = await db.query<{ id: string; type: string; status: string }>(
      "SELECT id, type, status FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY seq",
      [s.id],
    );
    assert.deepEqual(rows, [
      { id: removal, type: "removed", status: "delivered" },
      { id: other, type: "event", status: "delivered" },
    ]);
  });
});
