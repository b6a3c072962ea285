import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { LedgerPacing } from "../src/workers/ledger/pacing.js";

const CHAIN = "31337";

/**
 * An idle loop's head requests against a chain that makes a block every `blockMs` from `phase`
 * (ms), for `blocks` blocks, with the loop's waits (pacing.ts, waitMs) on a mocked clock: how
 * many requests it made per block and how late it saw each block.
 */
function simulate(pollMs: number, blockMs: number, phase: number, blocks: number) {
  const pacing = new LedgerPacing(pollMs, 60_000, new Map([[CHAIN, blockMs]]));
  const headAt = (t: number) => (t < phase ? 0 : Math.floor((t - phase) / blockMs) + 1);
  let now = 0;
  let requests = 0;
  let lastHead = -1;
  let maxLate = 0;
  const end = phase + blocks * blockMs;
  while (now < end) {
    mock.timers.setTime(now);
    const head = headAt(now);
    requests++;
    pacing.sawHead(CHAIN, head, `0x${head.toString(16)}`);
    if (head !== lastHead) {
      if (lastHead >= 0) maxLate = Math.max(maxLate, now - (phase + (head - 1) * blockMs));
      lastHead = head;
    }
    pacing.quietAt(CHAIN, head); // each step finds nothing more to do
    now += pacing.waitMs([CHAIN]);
  }
  return { perBlock: requests / blocks, maxLate };
}

describe("ledger: an idle loop's head requests on a chain that keeps its block time", () => {
  it("blocksEverySecond_250msPolls_aboutOneAndAQuarterRequestsPerBlock_eachBlockSeenWithinAPoll", (t) => {
    mock.timers.enable({ apis: ["Date"], now: 0 });
    t.after(() => mock.timers.reset());
    // Blocks at every phase of the poll: the figures hold whenever the chain's blocks come.
    // (A look a block time less a whole poll after the move, as before, made 2.0 per block.)
    for (const phase of [1, 37, 90, 125, 180, 249]) {
      const { perBlock, maxLate } = simulate(250, 1000, phase, 200);
      assert.ok(perBlock <= 1.3, `phase ${phase}: ${perBlock.toFixed(3)} head requests per block`);
      assert.ok(maxLate < 250, `phase ${phase}: a block seen ${maxLate} ms after it came`);
    }
  });

  it("blocksEveryTwelveSeconds_1sPolls_oneAndAQuarterPerBlockPlusTheFullStep_eachBlockSeenWithinAPoll", (t) => {
    // The full step of a quiet chain (every 8 polls: 8 s here, to renew the lease and look for new
    // programs) comes between two blocks: one request more per block. (Before: 3.1 per block.)
    mock.timers.enable({ apis: ["Date"], now: 0 });
    t.after(() => mock.timers.reset());
    for (const phase of [3, 400, 999]) {
      const { perBlock, maxLate } = simulate(1000, 12_000, phase, 100);
      assert.ok(perBlock <= 2.4, `phase ${phase}: ${perBlock.toFixed(3)} head requests per block`);
      assert.ok(maxLate < 1000, `phase ${phase}: a block seen ${maxLate} ms after it came`);
    }
  });
});
