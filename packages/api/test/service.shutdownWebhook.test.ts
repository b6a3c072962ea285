import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openDb, type Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { insertSubscription } from "../src/core/webhooks/store.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startReceiver } from "./helpers/receiver.js";
import { errorLines, startWorkerProcess, type WorkerProcess } from "./helpers/workerProcess.js";

// Ten minutes: within the test only an explicit release can explain a takeover, never expiry.
const LEASE_MS = 600_000;
// The documented bound: an attempt in flight ends within WEBHOOK_TIMEOUT_MS (10 s by default), the
// same as JOB_DRAIN_MS; plus a margin for a loaded machine.
const SHUTDOWN_BOUND_MS = 10_000;
const MARGIN_MS = 10_000;

async function until(what: string, fn: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One confirmed PSPMinted event of `programId` in the ledger, as the indexer leaves it. */
async function seedOneEvent(db: Db, programId: string) {
  await db.query(
    `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
       from_block, synced_to) VALUES ('31337', $1, 'registry', '0x01', '0x02', '0x03', '0x04', 1, 5)`,
    [programId],
  );
  await db.query(
    `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
       program_id, contract, event, args, campaign_id, accounts)
     VALUES ('31337', 1, 0, $1, 1700000001, $1, '0x0000000000000000000000000000000000000004', $2, 'pspVault',
       'PSPMinted', '{"amount":"1"}', '0xc1', '{}')`,
    [`0x${"1".padStart(64, "0")}`, programId],
  );
}

// SIGTERM while a webhook delivery waits for its receiver's answer: the process exits within the
// bound, gives the subscription's lease back on the way out, and the peer sends the delivery
// again under the same webhook-id, so the receiver can tell it is the same event.
describe("graceful shutdown: SIGTERM during a webhook delivery (points-api serve, PostgreSQL)", () => {
  let scratch: ScratchDatabase;
  let db: Db;
  const procs: WorkerProcess[] = [];
  const serve = () => {
    const proc = startWorkerProcess(
      {
        DATABASE_URL: scratch.url,
        PORT: "0",
        LEDGER: "off",
        // No chain is needed to deliver webhooks; an unreachable one only logs a warning.
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: "http://127.0.0.1:9" }]),
        WEBHOOK_ALLOW_PRIVATE: "1",
        WEBHOOK_POLL_MS: "50",
        WEBHOOK_LEASE_MS: String(LEASE_MS),
        // The retry after the cut attempt is due at once: what the peer waits for is the lease.
        WEBHOOK_RETRY_MIN_MS: "10",
      },
      "serve",
    );
    procs.push(proc);
    return proc;
  };
  const delivery = async () =>
    (
      await db.query<{ id: string; status: string; attempts: number; last_status: number | null }>(
        "SELECT id, status, attempts, last_status FROM webhook_deliveries",
      )
    )[0];
  const subscriptionLease = async () =>
    (await db.query<{ lease_owner: string | null }>("SELECT lease_owner FROM webhook_subscriptions"))[0]?.lease_owner;

  before(async () => {
    scratch = await createScratchDatabase();
    db = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    await migrate(db);
  });
  after(async () => {
    for (const p of procs) await p.kill("SIGKILL");
    await db?.close();
    await scratch?.drop();
  });

  it("pointsApiServe_onSigtermMidDelivery_exits0WithinTheBound_releasesTheLease_andThePeerDeliversUnderTheSameWebhookId", async (t) => {
    await seedOneEvent(db, "alpha");
    const rx = await startReceiver();
    t.after(() => rx.close());
    const sub = await insertSubscription(db, {
      owner: "key-1",
      programId: "alpha",
      chainId: "31337",
      url: rx.url,
      eventTypes: ["*"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    rx.state.secret = sub.secret;
    // The first request is held unanswered until its sender has exited; later ones are answered.
    let arrived = false;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    rx.state.beforeAnswer = async () => {
      if (arrived) return;
      arrived = true;
      await released;
    };

    const a = serve();
    await until("the delivery reaches the receiver", () => arrived).catch((e: Error) =>
      assert.fail(`${e.message}\n${a.output().slice(-3000)}`),
    );
    const d = await delivery();
    assert.equal(d?.status, "pending");

    const signalled = Date.now();
    await a.kill("SIGTERM");
    const tookMs = Date.now() - signalled;
    release();

    assert.equal(a.child.exitCode, 0, a.output());
    assert.ok(tookMs < SHUTDOWN_BOUND_MS + MARGIN_MS, `exited after ${tookMs} ms`);
    assert.deepEqual(errorLines(a.output()), []);
    // The attempt was cut (no answer within WEBHOOK_TIMEOUT_MS) and counted; the lease is given
    // back though it had ten minutes to run.
    assert.deepEqual(await delivery(), { id: d!.id, status: "pending", attempts: 1, last_status: null });
    assert.equal(await subscriptionLease(), null);

    const b = serve();
    await until("the peer delivers it", async () => (await delivery())?.status === "delivered").catch((e: Error) =>
      assert.fail(`${e.message}\n${b.output().slice(-3000)}`),
    );
    await b.kill("SIGTERM");
    assert.equal(b.child.exitCode, 0, b.output());

    // Exactly two requests, both under the delivery's id: the one cut by the shutdown (the
    // receiver took it but its answer reached nobody) and the peer's, answered 204. At least
    // once, never twice under different ids: the receiver keeps the first and drops the second
    // as a duplicate by webhook-id.
    assert.equal(rx.state.badSignatures, 0);
    assert.deepEqual(rx.state.ids, [d!.id, d!.id]);
    assert.deepEqual(
      rx.state.accepted.map((r) => [r.id, r.type, r.event, r.blockNumber]),
      [[d!.id, "ledger.event", "PSPMinted", 1]],
    );
    assert.deepEqual(rx.state.duplicates, [d!.id]);
    assert.deepEqual(await delivery(), { id: d!.id, status: "delivered", attempts: 2, last_status: 204 });
    assert.equal(await subscriptionLease(), null);
  });
});
