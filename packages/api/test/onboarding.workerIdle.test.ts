import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import type { TaskRepo } from "../src/core/onboarding/tasks.js";
import { Worker } from "../src/workers/onboarding/worker.js";

/** Lets the pass a timer started run to its end (the fake repo answers at once). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

// An idle worker (packages/api/README.md#configuration): 1 s polls backing off to 4 s, the
// executor lease (30 s) written once per third of it, not before every claim.
describe("onboarding worker: idle, on a fake clock", () => {
  it("nothingQueued_aMinuteWritesTheExecutorLeaseSixTimes_notBeforeEachOfTheSeventeenClaims", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const calls = { leaseExecutor: [] as number[], claim: 0 };
    const tasks = {
      leaseExecutor: async () => (calls.leaseExecutor.push(Date.now()), true),
      claim: async () => (calls.claim++, undefined),
      releaseTasks: async () => [],
      releaseExecutor: async () => undefined,
    } as unknown as TaskRepo;
    const worker = new Worker(tasks, async () => ({ programId: "p" }), pino({ level: "silent" }), {
      chainIds: ["31337"],
      leaseMs: 30_000,
      pollMs: 1_000,
    });
    t.after(() => worker.stop());
    worker.start();
    await settle();
    for (let ms = 0; ms < 60_000; ms += 50) {
      mock.timers.tick(50);
      await settle();
    }
    // Passes at 0, 1, 3, 7 s, then every 4 s up to 59 s; the lease at the first pass 10 s or more after the last.
    assert.equal(calls.claim, 17);
    assert.deepEqual(calls.leaseExecutor, [0, 11_000, 23_000, 35_000, 47_000, 59_000]);
  });
});
