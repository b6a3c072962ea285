import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import {
  IdleBackoff,
  PassLoop,
  idleBackoffFor,
  warnUndrained,
  type PassLoopOptions,
} from "../src/workers/jobs/passLoop.js";
import type { MetricValue } from "prom-client";
import { processRegistry } from "../src/core/metrics/hooks.js";

const HOUR = 3_600_000;

type Extra = Partial<Pick<PassLoopOptions<number>, "job" | "onUndrained" | "now">>;

/**
 * A loop whose passes are held until the test lets each one end; it waits an hour between passes.
 * Its metrics go under `extra.job` (each test its own name: the process's registry is shared).
 */
function heldLoop(waitMs: (r: number | undefined) => number = () => HOUR, extra: Extra = {}) {
  const started: number[] = [];
  const errors: unknown[] = [];
  let release: (() => void) | undefined;
  let fail: ((e: Error) => void) | undefined;
  let onStart: ((n: number) => void) | undefined;
  const loop = new PassLoop<number>({
    job: "test",
    pass: () =>
      new Promise<number>((resolve, reject) => {
        const n = started.push(started.length + 1);
        release = () => resolve(n);
        fail = reject;
        onStart?.(n);
      }),
    waitMs,
    onError: (e) => errors.push(e),
    ...extra,
  });
  /** Resolves when pass `n` has started (the test's own timeout bounds it). */
  const passStarted = (n: number) =>
    new Promise<void>((resolve) => {
      if (started.length >= n) return resolve();
      onStart = (m) => m >= n && resolve();
    });
  return { loop, started, errors, passStarted, release: () => release!(), fail: (e: Error) => fail!(e) };
}

/** The series of metric `name` whose `job` label is `job`: labels (without job) and value, as prom-client holds them. */
async function seriesOf(name: string, job: string): Promise<Record<string, string | number | undefined>[]> {
  const metric = processRegistry.getSingleMetric(name);
  assert.ok(metric, `${name} is registered in the registry /metrics serves`);
  // A histogram's values also name their series (_bucket, _sum, _count).
  const values = (await metric.get()).values as (MetricValue<string> & { metricName?: string })[];
  return values
    .filter((v) => v.labels.job === job)
    .map(({ labels: { job: _job, ...rest }, value, metricName }) => ({
      ...(metricName && { metricName }),
      ...rest,
      value,
    }));
}

describe("jobs: one pass loop for every background job", { timeout: 10_000 }, () => {
  it("poke_duringAPass_runsTheNextPassRightAfterIt", async () => {
    const l = heldLoop();
    l.loop.start();
    await l.passStarted(1);
    l.loop.poke(); // work queued while the pass runs: not lost until the hour is over
    l.release();
    await l.passStarted(2);
    assert.equal(l.started.length, 2);
    const stopped = l.loop.stop();
    l.release();
    await stopped;
  });

  it("poke_whileWaiting_endsTheWait", async () => {
    const l = heldLoop();
    l.loop.start();
    await l.passStarted(1);
    l.release();
    await new Promise((r) => setImmediate(r)); // the loop is in its hour's wait now
    assert.equal(l.started.length, 1);
    l.loop.poke();
    await l.passStarted(2);
    const stopped = l.loop.stop();
    l.release();
    await stopped;
  });

  it("waitMs_getsThePassResult_zeroRunsTheNextPassAtOnce", async () => {
    const l = heldLoop((n) => (n === 1 ? 0 : HOUR));
    l.loop.start();
    await l.passStarted(1);
    l.release();
    await l.passStarted(2);
    const stopped = l.loop.stop();
    l.release();
    await stopped;
    assert.equal(l.started.length, 2);
  });

  it("aPassThatThrows_isReported_andTheLoopGoesOn", async () => {
    const seen: (number | undefined)[] = [];
    const l = heldLoop((r) => (seen.push(r), r === undefined ? 0 : HOUR));
    l.loop.start();
    await l.passStarted(1);
    l.fail(new Error("database did not answer"));
    await l.passStarted(2);
    assert.deepEqual(
      l.errors.map((e) => (e as Error).message),
      ["database did not answer"],
    );
    assert.deepEqual(seen, [undefined], "a failed pass has no result");
    const stopped = l.loop.stop();
    l.release();
    await stopped;
  });

  it("stop_waitsForThePassInFlight_andNoPassStartsAfter", async () => {
    const l = heldLoop(() => 0);
    l.loop.start();
    await l.passStarted(1);
    let done = false;
    const stopped = l.loop.stop().then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, "stop() resolves only once the pass in flight has ended");
    assert.equal(l.loop.stopped, true);
    l.release();
    await stopped;
    l.loop.start();
    l.loop.poke();
    await new Promise((r) => setImmediate(r));
    assert.equal(l.started.length, 1, "a stopped loop neither passes again nor restarts");
  });
  it("aPassOutcome_isCounted_byJobAndOutcome_withExactCounts", async () => {
    const l = heldLoop(() => 0, { job: "rule-outcome" });
    // A loop's job is exported at 0 for both outcomes before any pass.
    assert.deepEqual(await seriesOf("points_job_passes_total", "rule-outcome"), [
      { outcome: "ok", value: 0 },
      { outcome: "error", value: 0 },
    ]);
    l.loop.start();
    await l.passStarted(1);
    l.release();
    await l.passStarted(2);
    l.fail(new Error("rpc did not answer"));
    await l.passStarted(3);
    l.release();
    await l.passStarted(4); // pass 3's outcome is counted before pass 4 starts
    assert.deepEqual(await seriesOf("points_job_passes_total", "rule-outcome"), [
      { outcome: "ok", value: 2 },
      { outcome: "error", value: 1 },
    ]);
    const text = await processRegistry.getSingleMetricAsString("points_job_passes_total");
    assert.match(text, /^points_job_passes_total\{job="rule-outcome",outcome="ok"\} 2$/m);
    assert.match(text, /^points_job_passes_total\{job="rule-outcome",outcome="error"\} 1$/m);
    const stopped = l.loop.stop();
    l.release();
    assert.equal(await stopped, true);
  });

  it("theHistogram_observesOneSamplePerPass_timedByTheLoopsClock", async () => {
    let clock = 1_000_000; // ms, moved only by the test
    const l = heldLoop(() => 0, { job: "rule-histogram", now: () => clock });
    l.loop.start();
    await l.passStarted(1);
    clock += 250;
    l.release();
    await l.passStarted(2);
    clock += 2_000;
    l.fail(new Error("database did not answer")); // a failed pass is timed too
    await l.passStarted(3);
    const seen = await seriesOf("points_job_pass_seconds", "rule-histogram");
    const sample = (metricName: string, le?: number) =>
      seen.find((v) => v.metricName === metricName && (le === undefined || v.le === le))?.value;
    assert.equal(sample("points_job_pass_seconds_count"), 2, "one sample per pass");
    assert.equal(sample("points_job_pass_seconds_sum"), 2.25);
    assert.equal(sample("points_job_pass_seconds_bucket", 0.1), 0);
    assert.equal(sample("points_job_pass_seconds_bucket", 0.25), 1);
    assert.equal(sample("points_job_pass_seconds_bucket", 2.5), 2);
    assert.equal(sample("points_job_pass_seconds_bucket", 0.001), 0, "buckets start at 1 ms");
    assert.equal(sample("points_job_pass_seconds_bucket", 60), 2, "and reach a minute");
    // The last success is pass 1's end on the loop's clock; the failed pass 2 does not move it.
    assert.deepEqual(await seriesOf("points_job_last_success_timestamp_seconds", "rule-histogram"), [
      { value: 1_000.25 },
    ]);
    const stopped = l.loop.stop();
    l.release();
    await stopped;
  });

  it("stop_whosePassHangs_resolvesAfterTheBound_andReportsTheJob", async () => {
    const warned: { obj: object; msg: string }[] = [];
    const logger = { warn: (obj: object, msg: string) => void warned.push({ obj, msg }) };
    const l = heldLoop(() => 0, { job: "rule-hang", onUndrained: warnUndrained(logger, "rule-hang") });
    l.loop.start();
    await l.passStarted(1); // and never released before the stop: a stuck RPC call
    const drained = await l.loop.stop(50);
    assert.equal(drained, false, "stop() gave up on the pass after the bound");
    assert.equal(warned.length, 1);
    assert.deepEqual(warned[0]!.obj, { job: "rule-hang", drainMs: 50 });
    assert.match(warned[0]!.msg, /rule-hang job did not drain/);
    // The pass ends later: no pass follows it, and it is still counted.
    l.release();
    await new Promise((r) => setImmediate(r));
    assert.equal(l.started.length, 1);
    assert.deepEqual(await seriesOf("points_job_passes_total", "rule-hang"), [
      { outcome: "ok", value: 1 },
      { outcome: "error", value: 0 },
    ]);
  });

  it("stop_withAQuickPass_resolvesWhenThePassEnds_notAtTheBound", async () => {
    const undrained: number[] = [];
    const l = heldLoop(() => 0, { job: "rule-quick", onUndrained: (ms) => undrained.push(ms) });
    l.loop.start();
    await l.passStarted(1);
    let done = false;
    // An hour's bound: only the pass ending can resolve it within the test's 10 s timeout.
    const stopped = l.loop.stop(HOUR).then((drained) => ((done = true), drained));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, "the pass in flight is waited for");
    l.release();
    assert.equal(await stopped, true);
    assert.deepEqual(undrained, [], "nothing is reported when the pass ended in time");
  });

  it("stop_withABound_onALoopBetweenPasses_resolvesAtOnce", async () => {
    const l = heldLoop(() => HOUR, { job: "rule-idle" });
    l.loop.start();
    await l.passStarted(1);
    l.release();
    await new Promise((r) => setImmediate(r)); // in its hour's wait now
    assert.equal(await l.loop.stop(HOUR), true);
    assert.equal(
      await new PassLoop({ job: "rule-idle", pass: async () => 0, waitMs: () => 0, onError: () => {} }).stop(1),
      true,
      "a loop never started drains at once",
    );
  });
});

// A job whose passes keep failing (a database away, a node down) does not hammer it.
describe("jobs: failed passes in a row back off (mocked clock)", () => {
  const STEP = 50;

  /** A loop whose passes fail while `failing(n)` says so for pass n; the mocked times each pass started. */
  function failingLoop(failing: (n: number) => boolean, failureMaxMs?: number) {
    const starts: number[] = [];
    const loop = new PassLoop<number>({
      job: "test-failure-backoff",
      pass: async () => {
        const n = starts.push(Date.now());
        if (failing(n)) throw new Error(`pass ${n} failed`);
        return n;
      },
      waitMs: (r) => (r === undefined ? 100 : HOUR),
      ...(failureMaxMs !== undefined && { failureMaxMs }),
      onError: () => undefined,
    });
    return { loop, starts };
  }

  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };

  /** Moves the mocked clock by `ms`, a step at a time, letting each pass's promises settle first. */
  async function advance(ms: number) {
    for (let t = 0; t < ms; t += STEP) {
      await settle();
      mock.timers.tick(STEP);
    }
    await settle();
  }

  it("failedPasses_doubleTheWaitPerFailureInARow_upToFailureMaxMs", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const { loop, starts } = failingLoop((n) => n <= 4, 400);
    loop.start();
    await advance(2_000);
    // Waits of 100, 200, 400 and 400 (the bound) after the four failures; then the pass succeeds
    // and the next waits its hour.
    assert.deepEqual(starts, [0, 100, 300, 700, 1_100]);
    await loop.stop();
  });

  it("aPassThatSucceeds_startsTheFailureWaitsAgainFromTheFirst", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const { loop, starts } = failingLoop((n) => n !== 3, 400);
    loop.start();
    await advance(400);
    assert.deepEqual(starts, [0, 100, 300], "two failures, then the success at 300 waits its hour");
    loop.poke(); // work queued: pass 4 runs at once and fails
    await advance(150);
    assert.deepEqual(starts, [0, 100, 300, 400, 500], "after the success, the first failure waits 100 again");
    await loop.stop();
  });

  it("theDefaultBound_is16TimesTheFailedPassWait", async (t) => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
    t.after(() => mock.timers.reset());
    const { loop, starts } = failingLoop(() => true);
    loop.start();
    await advance(7_000);
    const waits = starts.slice(1).map((s, i) => s - starts[i]!);
    assert.deepEqual(waits, [100, 200, 400, 800, 1_600, 1_600, 1_600]);
    await loop.stop();
  });
});

// An idle job backs off (packages/api/README.md#configuration): the onboarding worker and the webhook dispatcher.
describe("jobs: an idle job's poll backs off", () => {
  it("idleWaits_doublePerIdlePassInARow_upToTheMax", () => {
    const b = new IdleBackoff(250, 1000);
    assert.deepEqual([b.idle(), b.idle(), b.idle(), b.idle(), b.idle()], [250, 500, 1000, 1000, 1000]);
  });

  it("aPassWithWork_startsTheWaitsAgainFromThePoll", () => {
    const b = new IdleBackoff(250, 1000);
    b.idle();
    b.idle();
    b.busy();
    assert.deepEqual([b.idle(), b.idle()], [250, 500]);
  });

  it("manyIdlePasses_neverOverflowTheWait", () => {
    const b = new IdleBackoff(250, 1000);
    for (let i = 0; i < 10_000; i++) b.idle();
    assert.equal(b.idle(), 1000);
  });

  it("theMax_isFourPollsOrFourSeconds_butNeverPastAThirdOfTheLeaseNorBelowThePoll", () => {
    const waits = (poll: number, lease: number) => {
      const b = idleBackoffFor(poll, lease);
      return Array.from({ length: 5 }, () => b.idle()).at(-1);
    };
    assert.equal(waits(1000, 30_000), 4000, "defaults: worker poll 1 s, task lease 30 s");
    assert.equal(waits(250, 30_000), 4000, "defaults: webhook poll 250 ms, backing off to IDLE_MAX_MS");
    assert.equal(waits(2000, 30_000), 8000, "defaults: verification poll 2 s, four polls");
    assert.equal(waits(1000, 6000), 2000, "a short lease: a third of it");
    assert.equal(waits(1000, 600), 1000, "a lease under three polls: the poll itself");
  });
});
