import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { migrate, openDb, type Db } from "../src/index.js";
import { WebhookDispatcher, type WebhookOptions } from "../src/workers/webhooks/dispatcher.js";
import { insertSubscription } from "../src/core/webhooks/store.js";
import { FairSlots } from "../src/workers/webhooks/slots.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startReceiver } from "./helpers/receiver.js";

const EVENTS = 3;

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A receiver that takes every request and never answers; counts the requests it holds open. */
async function startSilentReceiver() {
  const held = new Set<ServerResponse>();
  let closedEarly = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    held.add(res);
    // Closed by the sender (its timeout) while still unanswered.
    res.on("close", () => {
      if (held.delete(res)) closedEarly++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held: () => held.size,
    closedEarly: () => closedEarly,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function seedLedger(db: Db, programId: string) {
  await db.query(
    `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
       from_block, synced_to) VALUES ('31337', $1, 'registry', '0x01', $2, '0x03', '0x04', 1, $3)`,
    [programId, `0x${programId}`, EVENTS + 5],
  );
  for (let b = 1; b <= EVENTS; b++) {
    await db.query(
      `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
         program_id, contract, event, args, campaign_id, accounts)
       VALUES ('31337', $1::bigint, 0, $2, 1700000000 + $1::bigint, $2, '0x0000000000000000000000000000000000000004', $3, 'pspVault', 'PSPMinted', '{}', '0xc1', '{}')`,
      [b, `0x${b.toString(16).padStart(64, "0")}`, programId],
    );
  }
}

// docs/architecture.md#webhooks: queues run per subscription beside the passes, attempts share
// slots fairly across owners, so one tenant's silent receivers delay only that tenant.
describe("webhooks: a slow receiver delays only itself", () => {
  let scratch: ScratchDatabase;
  let db: Db;

  before(async () => {
    scratch = await createScratchDatabase();
    db = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    await migrate(db);
    await seedLedger(db, "fair");
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
  });

  const subscribe = (owner: string, url: string) =>
    insertSubscription(db, {
      owner,
      programId: "fair",
      chainId: "31337",
      url,
      eventTypes: ["*"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });

  it("attack_tenantAsSilentReceivers_holdAtMostItsOwnerSlots_andTenantBIsDeliveredWhileTheyStillHang", async (t) => {
    const silent = await startSilentReceiver();
    const rx = await startReceiver();
    // An attempt's timeout far beyond this test: A's requests end only when the test closes them.
    const opts: WebhookOptions = {
      allowPrivate: true,
      timeoutMs: 120_000,
      retryMinMs: 20,
      retryWindowMs: 600_000,
      pollMs: 20,
      leaseMs: 300_000,
      concurrency: 5,
      ownerConcurrency: 4,
    };
    const dispatcher = new WebhookDispatcher(db, pino({ level: "silent" }), opts);
    t.after(async () => {
      await silent.close();
      await dispatcher.stop();
      await rx.close();
    });
    for (let i = 0; i < 6; i++) await subscribe("tenant-a", silent.url);
    dispatcher.start();
    await until("tenant A's requests held by its receiver", () => silent.held() === 4);

    // Tenant B subscribes while A's requests hang: its events go out on the one slot A cannot take.
    const b = await subscribe("tenant-b", rx.url);
    rx.state.secret = b.secret;
    await until("tenant B's deliveries", () => rx.state.accepted.length === EVENTS);

    assert.deepEqual(
      rx.state.accepted.map((r) => r.blockNumber),
      [1, 2, 3],
    );
    assert.equal(rx.state.badSignatures, 0);
    // A's requests still hang, none was cut short, and A never held more than its 4 slots.
    assert.equal(silent.held(), 4);
    assert.equal(silent.closedEarly(), 0);
  });

  it("fairSlots_grantAFreedSlot_toTheWaitingOwnerWithFewestInFlight_beforeAnOwnerQueuedEarlier", async () => {
    const slots = new FairSlots(2, 2);
    const a1 = await slots.acquire("a");
    const a2 = await slots.acquire("a");
    const order: string[] = [];
    const a3 = slots.acquire("a").then((r) => (order.push("a"), r));
    const b1 = slots.acquire("b").then((r) => (order.push("b"), r));
    assert.equal(slots.busy, 2);
    a1();
    (await b1)();
    a2();
    (await a3)();
    assert.deepEqual(order, ["b", "a"]);
    assert.equal(slots.busy, 0);
  });
});
