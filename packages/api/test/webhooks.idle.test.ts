import { describe, it, mock, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import type { Db } from "../src/core/db/db.js";
import { WebhookDispatcher, type WebhookOptions } from "../src/workers/webhooks/dispatcher.js";

const OPTS: WebhookOptions = {
  allowPrivate: true,
  timeoutMs: 1000,
  retryMinMs: 1000,
  retryWindowMs: 60_000,
  pollMs: 250,
  leaseMs: 30_000,
  concurrency: 4,
  ownerConcurrency: 2,
};

/** A database with no subscription: counts the dispatcher's claims (one per pass). */
function emptyDb() {
  const claims = { n: 0 };
  const db = {
    query: async (sql: string) => {
      if (sql.includes("FOR UPDATE SKIP LOCKED")) claims.n++;
      return [];
    },
  } as unknown as Db;
  return { db, claims };
}

/** Lets the pass a timer started run to its end (its queries answer at once). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/** A dispatcher over `emptyDb`, started on a fake clock at 0 (both undone after the test). */
async function startedIdle(t: TestContext) {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
  t.after(() => mock.timers.reset());
  const { db, claims } = emptyDb();
  const d = new WebhookDispatcher(db, pino({ level: "silent" }), OPTS);
  t.after(() => d.stop());
  d.start();
  await settle();
  return { d, claims };
}

/** Moves the fake clock `ms` forward in 50 ms steps, each pass run to its end. */
async function advance(ms: number) {
  for (let t = 0; t < ms; t += 50) {
    mock.timers.tick(50);
    await settle();
  }
}

// An idle dispatcher (docs/architecture.md#webhooks): 250 ms polls back off, doubling, to
// IDLE_MAX_MS (4 s); work queued in this process wakes it at once.
describe("webhooks: an idle dispatcher backs off to one claim per 4 s", () => {
  it("nothingToSend_aMinuteCostsNineteenClaims_notOnePerSecond", async (t) => {
    const { d, claims } = await startedIdle(t);
    await advance(60_000);
    // Passes at 0, 0.25, 0.75, 1.75, 3.75 s, then every 4 s: 7.75 ... 59.75 s (14 more).
    assert.equal(claims.n, 19);
  });

  it("idle_aCommittedEventOrARequestWakesItAtOnce_withoutTheClockMoving", async (t) => {
    const { d, claims } = await startedIdle(t);
    await advance(10_000);
    const idle = claims.n;
    d.onLedgerEvent({ type: "block", chainId: "31337", block: { number: 5, hash: "0x05" }, events: 1 });
    await settle();
    assert.equal(claims.n, idle + 1, "a range that stored events: a pass now");
    d.onLedgerEvent({ type: "block", chainId: "31337", block: { number: 6, hash: "0x06" }, events: 0 });
    await settle();
    assert.equal(claims.n, idle + 1, "an empty range: no pass");
    d.wake(); // what ctx.pokeWebhooks does after a resume, redelivery, replay or create
    await settle();
    assert.equal(claims.n, idle + 2, "a request that queued deliveries: a pass now");
  });
});
