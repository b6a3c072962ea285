import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { doubling, jittered } from "../src/core/backoff.js";

describe("backoff: the service's one doubling wait and its jitter", () => {
  it("doubling_startsAtMin_doublesPerFailure_stopsAtMax", () => {
    // The desk's defaults: 1 min, 2, 4 ... at most 1 h.
    assert.deepEqual(
      [1, 2, 3, 6, 7, 40].map((n) => doubling(n, 60_000, 3_600_000)),
      [60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000],
    );
    assert.equal(doubling(0, 250, 30_000), 250, "no failure yet waits the minimum, not half of it");
    assert.equal(doubling(Number.MAX_SAFE_INTEGER, 1, 300), 300, "a huge count stays finite");
  });

  it("jittered_drawsBetweenLoAndHiTimesTheWait", () => {
    const random = mock.method(Math, "random", () => 0);
    try {
      assert.equal(jittered(1000, 0.5, 1), 500);
      random.mock.mockImplementation(() => 0.5);
      assert.equal(jittered(1000, 0.5, 1), 750);
      assert.equal(jittered(1000, 0.75, 1.25), 1000);
      random.mock.mockImplementation(() => 0.999);
      assert.equal(jittered(1000, 0.75, 1.25), 1249.5);
    } finally {
      random.mock.restore();
    }
  });
});
