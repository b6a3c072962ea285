import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { detached } from "../src/core/detached.js";

describe("detached: an async callback for a caller that ignores its result", () => {
  it("detached_passesArguments_returnsNothing_rejectionGoesToOnError", async () => {
    const seen: unknown[] = [];
    const errors: unknown[] = [];
    const boom = new Error("boom");
    const cb = detached(
      async (a: number, b: string) => {
        seen.push(a, b);
        throw boom;
      },
      (e) => errors.push(e),
    );
    assert.equal(cb(1, "x"), undefined);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, [1, "x"]);
    assert.deepEqual(errors, [boom]);
  });

  it("detached_resolved_onErrorNotCalled", async () => {
    const errors: unknown[] = [];
    let ran = 0;
    detached(
      async () => {
        ran += 1;
      },
      (e) => errors.push(e),
    )();
    await new Promise((r) => setImmediate(r));
    assert.equal(ran, 1);
    assert.deepEqual(errors, []);
  });
});
