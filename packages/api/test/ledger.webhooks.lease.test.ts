import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { loadConfig, migrate, openDb, type Db } from "../src/index.js";
import { WebhookDispatcher, type WebhookOptions } from "../src/workers/webhooks/dispatcher.js";
import { insertSubscription, type SubscriptionRow } from "../src/core/webhooks/store.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startReceiver } from "./helpers/receiver.js";
import { startWorkerProcess } from "./helpers/workerProcess.js";
import { configProblems } from "./helpers/config.js";

const EVENTS = 120;
const OPTS: WebhookOptions = {
  allowPrivate: true,
  timeoutMs: 400,
  retryMinMs: 20,
  retryWindowMs: 60_000,
  pollMs: 20,
  leaseMs: 1000,
  concurrency: 32,
  ownerConcurrency: 4,
};

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * A program's ledger as the indexer leaves it: `EVENTS` confirmed PSPMinted events, one per
 * block from block 1, the program synced past them.
 */
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
       VALUES ('31337', $1::bigint, $2, $3, 1700000000 + $1::bigint, $3, '0x0000000000000000000000000000000000000004', $4, 'pspVault', 'PSPMinted', $5, '0xc1', '{}')`,
      [b, programId.length, `0x${b.toString(16).padStart(64, "0")}`, programId, JSON.stringify({ amount: String(b) })],
    );
  }
}

// Dispatchers on one PostgreSQL (docs/architecture.md#webhooks): subscriptions are shared by
// lease, so two instances never send one delivery at once; a killed instance's subscriptions
// are taken over when its lease expires, and what it had in flight is sent again (at least once).
describe("ledger: webhook dispatchers share subscriptions by lease on PostgreSQL", () => {
  let scratch: ScratchDatabase;
  let dbA: Db;
  let dbB: Db;

  before(async () => {
    scratch = await createScratchDatabase();
    dbA = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    dbB = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    await migrate(dbA);
  });
  after(async () => {
    await dbA?.close();
    await dbB?.close();
    await scratch?.drop();
  });

  const pendingOf = async (subscriptionId: string) =>
    Number(
      (
        await dbA.query<{ n: string }>(
          "SELECT count(*)::text AS n FROM webhook_deliveries WHERE subscription_id = $1 AND status = 'pending'",
          [subscriptionId],
        )
      )[0]!.n,
    );

  it("twoDispatchers_deliverEveryEventExactlyOnce_inChainOrder_withNoRequestSentTwice", async (t) => {
    await seedLedger(dbA, "alpha");
    const receivers = await Promise.all([startReceiver(), startReceiver(), startReceiver(), startReceiver()]);
    t.after(() => Promise.all(receivers.map((r) => r.close())));
    const subs: SubscriptionRow[] = [];
    for (const [i, rx] of receivers.entries()) {
      const s = await insertSubscription(dbA, {
        owner: `key-${i}`,
        programId: "alpha",
        chainId: "31337",
        url: rx.url,
        eventTypes: ["*"],
        campaignId: null,
        holder: null,
        fromBlock: 0,
      });
      rx.state.secret = s.secret;
      subs.push(s);
    }
    const silent = pino({ level: "silent" });
    // Both stay alive here, so their leases are long: a lease that lapses because a loaded machine paused one
    // dispatcher is a takeover (the next test), and a takeover may send its in-flight delivery again.
    const live = { ...OPTS, leaseMs: 15_000 };
    const a = new WebhookDispatcher(dbA, silent, live);
    const b = new WebhookDispatcher(dbB, silent, live);
    t.after(() => Promise.all([a.stop(), b.stop()]));
    a.start();
    b.start();
    await until("every delivery sent", () => receivers.every((r) => r.state.accepted.length >= EVENTS));
    await until("every delivery marked", async () =>
      (await Promise.all(subs.map((s) => pendingOf(s.id)))).every((n) => n === 0),
    );

    for (const rx of receivers) {
      assert.equal(rx.state.badSignatures, 0);
      assert.deepEqual(rx.state.duplicates, []);
      // One request per delivery: no webhook-id reached the receiver twice, not even in parallel.
      assert.equal(rx.state.requests, EVENTS);
      assert.equal(new Set(rx.state.ids).size, EVENTS);
      assert.deepEqual(
        rx.state.accepted.map((r) => r.blockNumber),
        Array.from({ length: EVENTS }, (_, i) => i + 1),
      );
    }
    const owners = await dbA.query<{ lease_owner: string }>(
      "SELECT DISTINCT lease_owner FROM webhook_subscriptions WHERE lease_owner IS NOT NULL",
    );
    for (const o of owners) assert.ok([a.id, b.id].includes(o.lease_owner));
  });

  it("aKilledDispatcher_isTakenOverAfterItsLease_andItsInFlightDeliveryIsSentAgain_underTheSameWebhookId", async (t) => {
    await seedLedger(dbA, "beta");
    const rx = await startReceiver();
    t.after(() => rx.close());
    const s = await insertSubscription(dbA, {
      owner: "key-killed",
      programId: "beta",
      chainId: "31337",
      url: rx.url,
      eventTypes: ["PSPMinted"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    rx.state.secret = s.secret;
    // Only this subscription is left to send: the first test's are all delivered.
    await dbA.query("DELETE FROM webhook_subscriptions WHERE id <> $1", [s.id]);
    const proc = startWorkerProcess(
      {
        DATABASE_URL: scratch.url,
        // No chain is needed to deliver webhooks; an unreachable one only logs a warning.
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: "http://127.0.0.1:9" }]),
        WEBHOOK_ALLOW_PRIVATE: "1",
        WEBHOOK_POLL_MS: "20",
        // Room for the receiver's hook below to wait and kill while this attempt is still open.
        WEBHOOK_TIMEOUT_MS: "1000",
        WEBHOOK_LEASE_MS: "2500",
      },
      "webhooks",
    );
    t.after(() => proc.kill("SIGKILL"));
    let inFlight = "";
    let killedAt = 0;
    let leaseExpiresAt = 0;
    // The 30th delivery reaches the receiver; the process dies before it hears the answer.
    rx.state.beforeAnswer = async (id) => {
      if (rx.state.accepted.length !== 30 || inFlight) return;
      inFlight = id;
      // The 29 before it are marked delivered (marks are written while the next one is sent).
      await until("the first 29 marked", async () => (await pendingOf(s.id)) === EVENTS - 29);
      await proc.kill("SIGKILL");
      const [row] = await dbA.query<{ ms: string }>(
        "SELECT (extract(epoch FROM lease_expires_at) * 1000)::bigint::text AS ms FROM webhook_subscriptions WHERE id = $1",
        [s.id],
      );
      leaseExpiresAt = Number(row!.ms);
      killedAt = Date.now();
    };
    await until("the dispatcher process is killed mid-delivery", () => killedAt > 0, 60_000);
    assert.equal(await pendingOf(s.id), EVENTS - 29, proc.output());

    // The killed holder's lease, as it left it, still runs: nobody sends until it expires. The next request's
    // arrival is stamped by the receiver itself (a poll would only see it later).
    assert.ok(leaseExpiresAt > killedAt, `the killed holder's lease had already expired at the kill`);
    let nextRequestAt = 0;
    rx.state.beforeAnswer = () => void (nextRequestAt ||= Date.now());
    const b = new WebhookDispatcher(dbB, pino({ level: "silent" }), OPTS);
    t.after(() => b.stop());
    b.start();
    await until("the next request", () => nextRequestAt > 0);
    rx.state.beforeAnswer = undefined;
    assert.ok(
      nextRequestAt >= leaseExpiresAt,
      `taken over ${leaseExpiresAt - nextRequestAt} ms before the lease expired`,
    );
    await until("the rest delivered by the other dispatcher", async () => (await pendingOf(s.id)) === 0);
    const firstAfterKill = rx.state.ids.indexOf(inFlight, rx.state.ids.indexOf(inFlight) + 1);
    assert.ok(firstAfterKill > 0, "the in-flight delivery is sent again");
    const [lease] = await dbA.query<{ lease_owner: string }>(
      "SELECT lease_owner FROM webhook_subscriptions WHERE id = $1",
      [s.id],
    );
    assert.equal(lease!.lease_owner, b.id);
    assert.deepEqual(rx.state.duplicates, [inFlight]);
    assert.equal(rx.state.accepted.length, EVENTS);
    assert.deepEqual(
      rx.state.accepted.map((r) => r.blockNumber),
      Array.from({ length: EVENTS }, (_, i) => i + 1),
    );
    assert.equal(rx.state.badSignatures, 0);
  });
});

describe("ledger: the webhook lease outlives any one attempt", () => {
  it("aLeaseNotLongerThanTwiceTheAttemptTimeout_isRefusedAtStart", () => {
    assert.deepEqual(configProblems({ WEBHOOK_TIMEOUT_MS: "10000", WEBHOOK_LEASE_MS: "20000" }), [
      "WEBHOOK_LEASE_MS: must be more than twice WEBHOOK_TIMEOUT_MS",
    ]);
    assert.equal(loadConfig({ WEBHOOK_TIMEOUT_MS: "10000", WEBHOOK_LEASE_MS: "20001" }).webhooks.leaseMs, 20_001);
    assert.equal(loadConfig({}).webhooks.leaseMs, 30_000);
  });
});

// A dispatcher's pass claims its subscriptions, matches their new events, then sends. Its first
// attempt skipped the renewal when the queue had just started, timing the lease from the queue's
// start instead of the claim: a pass held up between the two (a large backlog to match, a slow
// database) sent on a lease that had expired and another instance had taken, so one delivery
// was in flight from two instances at once.
describe("ledger: a dispatcher held up after its claim sends nothing on a lease another instance took", () => {
  let scratch: ScratchDatabase;
  let db: Db;

  before(async () => {
    scratch = await createScratchDatabase();
    db = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    await migrate(db);
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it("aPassHeldBetweenItsClaimAndItsFirstAttempt_renewsFirst_andLeavesTheSubscriptionToItsNewHolder", async (t) => {
    await seedLedger(db, "gamma");
    const rx = await startReceiver();
    t.after(() => rx.close());
    const s = await insertSubscription(db, {
      owner: "key-held",
      programId: "gamma",
      chainId: "31337",
      url: rx.url,
      eventTypes: ["*"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    rx.state.secret = s.secret;
    // The receiver keeps the first request open until the test answers it.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    rx.state.beforeAnswer = () => answered;

    // A's database holds A's pass right after its claim, where it matches new events.
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held: Db = Object.create(db, {
      query: {
        value: async (sql: string, params?: unknown[]) => {
          if (sql.includes("SELECT synced_to FROM ledger_programs")) {
            reached();
            await gate;
          }
          return db.query(sql, params as never);
        },
      },
    });
    const silent = pino({ level: "silent" });
    const opts = { ...OPTS, leaseMs: 300, timeoutMs: 5_000 };
    const a = new WebhookDispatcher(held, silent, opts);
    const b = new WebhookDispatcher(db, silent, opts);
    const aPass = a.pass();
    await atGate;
    await until("A's lease expired", async () => {
      const [row] = await db.query<{ expired: boolean }>(
        "SELECT lease_expires_at < now() AS expired FROM webhook_subscriptions WHERE id = $1",
        [s.id],
      );
      return row!.expired;
    });
    // B takes the subscription over and its first attempt is in flight.
    const bPass = b.pass();
    await until("B's first request", () => rx.state.requests === 1);

    open();
    let done = false;
    const second = until("a second request", () => done || rx.state.requests > 1);
    await Promise.race([aPass, second]);
    done = true;
    await second;
    assert.equal(rx.state.requests, 1, "A sent nothing while B held the subscription");
    answer();
    await Promise.all([aPass, bPass]);
    const [lease] = await db.query<{ lease_owner: string }>(
      "SELECT lease_owner FROM webhook_subscriptions WHERE id = $1",
      [s.id],
    );
    assert.equal(lease!.lease_owner, b.id);
  });
});
