import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Db } from "../src/index.js";
import type { Queryable } from "../src/core/db/db.js";
import { WebhookEventData } from "@points/schema";
import { enqueue, insertSubscription, sentData } from "../src/core/webhooks/store.js";
import { eventsPage } from "../src/core/ledger/read.js";
import { memoryDb } from "./helpers/db.js";

const addEvent = (db: Queryable, block: number) =>
  db.query(
    `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
       program_id, contract, event, args, campaign_id, accounts)
     VALUES ('31337', $1::bigint, 0, '0xh', 1700000000, '0xt', '0x0000000000000000000000000000000000000004', 'acme', 'pspVault', 'PSPMinted', '{}', '0xc1', '{}')`,
    [block],
  );

// Matching ledger events into deliveries (docs/architecture.md#webhooks) while the indexer
// commits: a block committed between the matcher's reads is matched by its next call.
describe("ledger: webhook matching races the indexer", () => {
  let db: Db;
  before(async () => {
    db = await memoryDb();
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

  it("aDeliverysData_hasTheLedgerRoutesFieldTypes_blockTimeAsIsoText_addressChecksummed", async () => {
    const sub = await insertSubscription(db, {
      owner: "k2",
      programId: "acme",
      chainId: "31337",
      url: "http://127.0.0.1:9/hooks",
      eventTypes: ["PSPMinted"],
      campaignId: null,
      holder: null,
      fromBlock: 9,
    });
    await enqueue(db, sub);
    const [d] = await db.query<{ payload: Record<string, unknown> | string }>(
      "SELECT payload FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY seq LIMIT 1",
      [sub.id],
    );
    const data = typeof d!.payload === "string" ? JSON.parse(d!.payload) : d!.payload;
    const page = await eventsPage(db, "acme", { events: ["PSPMinted"] }, 10, "11.0", 1);
    const route = page.events[0]!;
    assert.deepEqual(data, {
      program: "acme",
      chainId: "31337",
      blockNumber: 10,
      logIndex: 0,
      txHash: "0xt",
      blockTime: route.time,
      contract: "pspVault",
      address: route.address,
      event: "PSPMinted",
      campaignId: "0xc1",
      args: {},
    });
    assert.equal(data.blockTime, "2023-11-14T22:13:20.000Z");
    assert.deepEqual(sentData(data), data);
    // Queued by an earlier version (seconds, lowercase address): sent with the same types.
    const legacy = { ...data, blockTime: 1700000000, address: data.address.toLowerCase() };
    assert.deepEqual(sentData(legacy), data);
  });

  it("theSchemasDeliveryData_typesArgsByEvent_andRefusesAnotherBlockTime", () => {
    const place = {
      program: "acme",
      chainId: "31337",
      blockNumber: 10,
      logIndex: 0,
      txHash: "0xt",
      blockTime: "2023-11-14T22:13:20.000Z",
      contract: "pspVault",
      address: "0x0000000000000000000000000000000000000004",
      campaignId: "0x" + "01".repeat(32),
    };
    const args = {
      campaignId: "0x" + "01".repeat(32),
      minter: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      amount: "5",
      metadata: "",
    };
    assert.equal(WebhookEventData.safeParse({ ...place, event: "PSPMinted", args }).success, true);
    assert.equal(
      WebhookEventData.safeParse({ ...place, blockTime: 1700000000, event: "PSPMinted", args }).success,
      false,
    );
    assert.equal(
      WebhookEventData.safeParse({ ...place, event: "PSPMinted", args: { ...args, amount: 5 } }).success,
      false,
    );
    assert.equal(WebhookEventData.safeParse({ ...place, event: "CampaignFunded", args }).success, false);
  });
});
