import assert from "node:assert/strict";
import { deployProgram, MemoryStore } from "../src/index.js";
import { CrashingStore } from "./helpers/crash.js";
import { CHAIN, config } from "./helpers/fixture.js";
import { crashes, PER_CRASH_POINT_MS, resumeFixture } from "./helpers/resume.js";

/**
 * Crash injected after every store call of a first deployment is recorded, and while sent
 * transactions are still pending; a fresh call with the same store must end in the same state
 * with exactly one set of contracts and no extra transaction.
 */
describe("deployProgram: resume after a crash after any store call, or with transactions pending", () => {
  const { f, fresh, assertSameEnd, crashAtEveryStoreCall } = resumeFixture();

  it("resume_afterCrashAfterEveryStoreCall_endsInTheSameState_withOneSetOfContracts", function () {
    this.timeout(f.clean.calls.length * PER_CRASH_POINT_MS);
    return crashAtEveryStoreCall("after");
  });

  it("resume_waitsForTransactionsStillPending_whenTheCrashHitAfterSending", async () => {
    const { clean, node, brand, executor } = f;
    await fresh();
    await node.setAutomine(false);
    await node.setIntervalMining(300);
    try {
      const deployTx = clean.calls.findIndex((c) => c.startsWith("stageTransaction:deploy:ProgramFactory"));
      for (const at of [clean.calls.findIndex((c) => c.startsWith("stageTransaction:release")), deployTx]) {
        await fresh();
        const inner = new MemoryStore();
        // "before": the transaction is in the mempool, unrecorded, when the process dies.
        await crashes(
          deployProgram(config(brand), executor, new CrashingStore(inner, at, "before"), { chain: CHAIN }),
          `pending at ${at}`,
        );
        await assertSameEnd(await deployProgram(config(brand), executor, inner, { chain: CHAIN }), `pending at ${at}`);
      }
    } finally {
      await node.setIntervalMining(0);
      await node.setAutomine(true);
    }
  });
});
