import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../../src/components/format/duration.ts";
const { durationWords } = (await import(source)) as { durationWords: (seconds: number) => string };

describe("a duration reads in words, never as a count of seconds", () => {
  it("durationWords_hourMinutesDaysAndEveryPartKept", () => {
    assert.deepEqual([3600, 3120, 93_600, 45, 90_061, 2_592_000, 0].map(durationWords), [
      "1 h",
      "52 min",
      "1 d 2 h",
      "45 s",
      "1 d 1 h 1 min 1 s",
      "30 d",
      "none",
    ]);
  });
});
