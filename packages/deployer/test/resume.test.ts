import assert from "node:assert/strict";
import { deployProgram, MemoryStore } from "../src/index.js";
import { CrashingStore } from "./helpers/crash.js";
import { CHAIN, config } from "./helpers/fixture.js";
import { crashes, PER_CRASH_POINT_MS, resumeFixture } from "./helpers/resume.js";

/**
 * Crash injected at every store call of a first deployment (release included, mock collateral)
 * before the call is recorded, or with the store lost; a fresh call must end in the same state
 * with exactly one set of contracts and no extra transaction. Crashes after each call are in
 * resume.after.test.ts.
 */
describe("deployProgram: resume after a crash before any store call, or with the store lost", () => {
  const { f, fresh, assertSameEnd, crashAtEveryStoreCall } = resumeFixture();

  it("cleanRun_sendsSixReleaseTransactions_oneMock_andOneDeployment", () => {
    assert.equal(f.clean.nonce, 8);
    assert.ok(f.clean.calls.filter((c) => c.startsWith("stageTransaction")).length === 8);
  });

  it("resume_afterCrashBeforeEveryStoreCall_endsInTheSameState_withOneSetOfContracts", function () {
    this.timeout(f.clean.calls.length * PER_CRASH_POINT_MS);
    return crashAtEveryStoreCall("before");
  });

  it("resume_withALostStore_findsReleaseByNonceAndProgramByBrand", async function () {
    const { clean, brand, executor } = f;
    const points = clean.calls.map((c, i) => [c, i] as const).filter(([c]) => c.startsWith("stageTransaction"));
    this.timeout(points.length * PER_CRASH_POINT_MS);
    for (const at of points) {
      await fresh();
      const what = `crash after ${at[0]}, store lost`;
      await crashes(
        deployProgram(config(brand), executor, new CrashingStore(new MemoryStore(), at[1], "after"), { chain: CHAIN }),
        what,
      );
      await assertSameEnd(await deployProgram(config(brand), executor, new MemoryStore(), { chain: CHAIN }), what);
    }
  });
});
