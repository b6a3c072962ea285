import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PassLoop } from "../src/workers/jobs/passLoop.js";

const HOUR = 3_600_000;

/** A loop whose passes are held until the test lets each one end; it waits an hour between passes. */
function heldLoop(waitMs: (r: number | undefined) => number = () => HOUR) {
  const started: number[] = [];
  const errors: unknown[] = [];
  let release: (() => void) | undefined;
  let fail: ((e: Error) => void) | undefined;
  let onStart: ((n: number) => void) | undefined;
  const loop = new PassLoop<number>(
    () =>
      new Promise<number>((resolve, reject) => {
        const n = started.push(started.length + 1);
        release = () => resolve(n);
        fail = reject;
        onStart?.(n);
      }),
    waitMs,
    (e) => errors.push(e),
  );
  /** Resolves when pass `n` has started (the test's own timeout bounds it). */
  const passStarted = (n: number) =>
    new Promise<void>((resolve) => {
      if (started.length >= n) return resolve();
      onStart = (m) => m >= n && resolve();
    });
  return { loop, started, errors, passStarted, release: () => release!(), fail: (e: Error) => fail!(e) };
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
});
