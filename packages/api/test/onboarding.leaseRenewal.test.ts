import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { TaskRepo, type Task } from "../src/core/onboarding/tasks.js";
import { Worker } from "../src/workers/onboarding/worker.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { memoryDb } from "./helpers/db.js";

const HOUR = 3_600_000;

/** Resolves once `done()` holds, looking every 10 ms (the test's timeout bounds it). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

// A task's lease is renewed every third of the lease. Renewals that throw (the database away)
// used to be logged only: the lease lapsed, another worker took the task over, and both sent.
describe("onboarding worker: renewals that keep failing give the task up before its lease lapses", () => {
  it(
    "renewalsThrowing_abortTheTask_beforeTheLeaseEnds_finishNothing_andGiveItBackOnceTheDatabaseAnswers",
    { timeout: 60_000 },
    async () => {
      const LEASE_MS = 600;
      let claimed = false;
      let releaseAttempts = 0;
      const released: string[] = [];
      const finished: string[] = [];
      let abortedAfterMs = -1;
      let reason: unknown;
      const tasks = {
        leaseExecutor: async () => true,
        claim: async () => {
          if (claimed) return undefined;
          claimed = true;
          return { id: "task-1", brand: "acme", chainId: "31337", attempts: 1 } as Task;
        },
        renew: async () => {
          throw new Error("connection refused");
        },
        // The database is still away at the first attempt, back at the next.
        releaseTask: async (id: string, owner: string) => {
          if (++releaseAttempts === 1) throw new Error("connection refused");
          released.push(`${id} by ${owner}`);
        },
        releaseTasks: async () => [],
        releaseExecutor: async () => undefined,
        finish: async (id: string) => void finished.push(id),
      } as unknown as TaskRepo;
      const worker = new Worker(
        tasks,
        (_task, signal) => {
          const started = Date.now();
          return new Promise((_, reject) =>
            signal.addEventListener("abort", () => {
              abortedAfterMs = Date.now() - started;
              reason = signal.reason;
              reject(signal.reason as Error);
            }),
          );
        },
        pino({ level: "silent" }),
        { chainIds: ["31337"], leaseMs: LEASE_MS, pollMs: 20, drainMs: 0 },
      );
      worker.start();
      try {
        await until(() => released.length > 0);
      } finally {
        await worker.stop(50);
      }
      assert.equal((reason as Error).message, "lease renewal failing");
      assert.equal(((reason as Error).cause as Error).message, "connection refused");
      // Not at the first failed renewal (a third of the lease in) but at the second.
      assert.ok(abortedAfterMs >= LEASE_MS / 2, `gave up after two failed renewals (${abortedAfterMs} ms)`);
      assert.deepEqual(finished, [], "neither succeeded nor failed: another claim resumes it");
      assert.deepEqual(released, [`task-1 by ${worker.id}`], "given back by a later pass once the database answered");
      assert.equal(releaseAttempts, 2);
    },
  );

  it("releaseTask_byItsHolder_letsTheHolderClaimItAgain", async () => {
    const db = await memoryDb();
    try {
      const tasks = new TaskRepo(db);
      const request = onboardingBody("given-up", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8") as never;
      const { id } = (await tasks.create({ owner: "key:renew", request, predicted: null })).task;
      assert.equal((await tasks.claim("31337", "w1", HOUR))?.id, id);
      assert.equal(await tasks.claim("31337", "w1", HOUR), undefined, "held: not claimed twice");
      // At once, not a clock tick later: PGlite's now() moves in whole milliseconds, so most of
      // these rounds claim in the millisecond of the release.
      for (let round = 0; round < 20; round++) {
        await tasks.releaseTask(id, "w1");
        assert.equal(
          (await tasks.claim("31337", "w1", HOUR))?.id,
          id,
          `given back: its old holder resumes it (round ${round})`,
        );
      }
    } finally {
      await db.close();
    }
  });
});
