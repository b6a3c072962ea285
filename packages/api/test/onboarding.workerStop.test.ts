import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { TaskRepo, type Task } from "../src/core/onboarding/tasks.js";
import { Worker } from "../src/workers/onboarding/worker.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { memoryDb } from "./helpers/db.js";

const HOUR = 3_600_000;

/** Resolves once `done()` holds, looking after each turn of the event loop (the test's timeout bounds it). */
async function settled(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

// A stop bounded by JOB_DRAIN_MS gives up on the worker's pass in flight. A claim that answered
// after that still started its task: with the worker's leases given back and its engines stopped,
// the task ran on a fresh engine and sent with the executor's key while a peer could hold it.
describe("onboarding worker: a pass the bounded stop left behind starts nothing", () => {
  it("aClaimAnsweredAfterTheStopsBound_startsNoTask_andGivesThatTaskBack", async () => {
    let claimStarted!: () => void;
    const claiming = new Promise<void>((resolve) => (claimStarted = resolve));
    let answer!: (task: Task) => void;
    const released: string[] = [];
    const ran: string[] = [];
    const tasks = {
      leaseExecutor: async () => true,
      // The database answers this claim only after the stop has given up waiting for it.
      claim: () => (claimStarted(), new Promise<Task>((resolve) => (answer = resolve))),
      releaseTask: async (id: string, owner: string) => void released.push(`${id} by ${owner}`),
      releaseTasks: async () => [],
      releaseExecutor: async () => undefined,
      renew: async () => true,
      finish: async () => undefined,
    } as unknown as TaskRepo;
    const worker = new Worker(
      tasks,
      async (task) => (ran.push(task.id), { programId: "acme" }),
      pino({ level: "silent" }),
      { chainIds: ["31337"], leaseMs: HOUR, pollMs: HOUR, drainMs: 0 },
    );
    worker.start();
    await claiming;
    await worker.stop(50);
    answer({ id: "task-1", brand: "acme", chainId: "31337", attempts: 1 } as Task);
    await settled(() => released.length + ran.length > 0);
    assert.deepEqual(ran, [], "the task claimed after the stop did not run");
    assert.deepEqual(released, [`task-1 by ${worker.id}`], "its lease went back at once for another worker");
  });
  it("releaseTask_givesThatOneTaskToAnotherWorkerAtOnce_andOnlyItsHolderMayReleaseIt", async () => {
    const db = await memoryDb();
    try {
      const tasks = new TaskRepo(db);
      const request = onboardingBody("unstarted", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8") as never;
      const { id } = (await tasks.create({ owner: "key:stop", request, predicted: null })).task;
      assert.equal((await tasks.claim("31337", "stopping", HOUR))?.id, id);
      await tasks.releaseTask(id, "someone-else");
      assert.equal(await tasks.claim("31337", "peer", HOUR), undefined, "another holder's release does nothing");
      await tasks.releaseTask(id, "stopping");
      // The lease ends at the database's now(): the peer's very next look takes it, not an hour later.
      assert.equal((await tasks.claim("31337", "peer", HOUR))?.id, id);
    } finally {
      await db.close();
    }
  });
});
