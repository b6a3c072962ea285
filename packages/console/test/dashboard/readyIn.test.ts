import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/dashboard/readyIn.ts";
const { readyIn } = (await import(path)) as { readyIn: (readyAtIso: string, nowMs: number) => string };
const sentences = "../../src/api/revertSentences.ts";
const { revertSentence } = (await import(sentences)) as {
  revertSentence: (name: string, args: unknown) => string | undefined;
};

describe("a pending redemption says when it will be ready", () => {
  // The dates are built in local time: the words use the operator's clock.
  const at = new Date(2026, 10, 26, 14, 5, 0);

  it("readyIn_52MinutesAhead_saysMinutesAndTimeOfDay", () => {
    assert.equal(readyIn(at.toISOString(), at.getTime() - 52 * 60_000), "ready in 52 min (14:05)");
  });

  it("readyIn_partOfAMinute_roundsUp", () => {
    assert.equal(readyIn(at.toISOString(), at.getTime() - 30_000), "ready in 1 min (14:05)");
  });

  it("readyIn_hoursAhead_saysHoursAndMinutes", () => {
    assert.equal(readyIn(at.toISOString(), at.getTime() - 90 * 60_000), "ready in 1 h 30 min (14:05)");
  });

  it("readyIn_overADay_saysDaysAndHours_withTheDate", () => {
    const when = `${at.toISOString().slice(0, 10)} 14:05`;
    assert.equal(readyIn(at.toISOString(), at.getTime() - 26 * 3_600_000), `ready in 1 d 2 h (${when})`);
  });

  it("readyIn_reachedOrPassed_isReadyToFinalize", () => {
    assert.equal(readyIn(at.toISOString(), at.getTime()), "ready to finalize");
    assert.equal(readyIn(at.toISOString(), at.getTime() + 1), "ready to finalize");
  });
});

describe("finalizing early is a sentence with the ready time, not RedeemDelayNotElapsed(...)", () => {
  it("revertSentence_RedeemDelayNotElapsed_saysWhenAndWhoMayFinalizeSooner", () => {
    const at = new Date(Date.now() + 52 * 60_000 - 1_000);
    at.setMilliseconds(0);
    const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    assert.equal(
      revertSentence("RedeemDelayNotElapsed", { requestId: "2", readyAt: String(at.getTime() / 1000) }),
      `Redemption #2 is not ready yet: ready in 52 min (${hhmm}). Finalize it then, or ask an executor, who may finalize at once.`,
    );
  });
});
