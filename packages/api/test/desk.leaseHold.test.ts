import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import type { TaskRepo } from "../src/core/onboarding/tasks.js";
import { ExecutorLeaseHold } from "../src/workers/desk/lease.js";

/**
 * The desk's hold on the executor lease, on a mocked clock: a holder writes once per third of
 * the lease, not once per poll (an idle instance's database writes), and an instance without
 * the lease asks every poll (a lease given back on shutdown is taken up within one).
 */
describe("redemption desk: the executor lease hold's cadence (mocked clock)", () => {
  const LEASE_MS = 30_000;
  const POLL_MS = 1_000;

  /** A hold over a repo whose lease answers `granted()`; the times it was asked, in mocked ms. */
  function holdWith(granted: () => boolean) {
    const asked: number[] = [];
    const tasks = {
      leaseExecutor: async () => (asked.push(Date.now()), granted()),
    } as unknown as TaskRepo;
    const hold = new ExecutorLeaseHold(tasks, "owner-a", ["31337"], LEASE_MS, pino({ level: "silent" }), POLL_MS);
    return { hold, asked };
  }

  /** Moves the mocked clock by `ms` one poll at a time, letting each renewal's promises settle. */
  async function advance(ms: number) {
    for (let t = 0; t < ms; t += POLL_MS) {
      mock.timers.tick(POLL_MS);
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
  }

  it("holder_renewsOncePerThirdOfTheLease_notEveryPoll", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const { hold, asked } = holdWith(() => true);
    await hold.start();
    await advance(60_000);
    // At 0, then each third of the lease: 10 s, 20 s, ... 60 s; never the 60 polls between.
    assert.deepEqual(asked, [0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
    assert.equal(hold.holds("31337"), true);
    await hold.stop();
  });

  it("holder_itsTimerWakesOnlyWhenARenewalIsDue_notEveryPoll", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const { hold } = holdWith(() => true);
    const looks = { n: 0 };
    const internals = hold as unknown as { renew(): Promise<void> };
    const renew = internals.renew.bind(hold);
    internals.renew = () => (looks.n++, renew());
    await hold.start();
    await advance(60_000);
    // The first look, then one per third of the lease: 7 in a minute, not the 61 of a look per poll.
    assert.equal(looks.n, 7);
    await hold.stop();
  });

  it("instanceWithoutTheLease_asksEveryPoll_andHoldsFromTheFirstGrant", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    let free = false;
    const { hold, asked } = holdWith(() => free);
    await hold.start();
    await advance(3_000);
    assert.deepEqual(asked, [0, 1_000, 2_000, 3_000]);
    assert.equal(hold.holds("31337"), false);
    free = true; // the holder gave the lease back
    await advance(1_000);
    assert.equal(hold.holds("31337"), true);
    await advance(5_000);
    assert.deepEqual(asked, [0, 1_000, 2_000, 3_000, 4_000]);
    await hold.stop();
  });
});
