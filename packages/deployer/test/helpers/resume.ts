import assert from "node:assert/strict";
import { Contract, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { deployProgram, loadArtifact, MemoryStore, type ProgramRecord } from "../../src/index.js";
import { CrashingStore, InjectedCrash } from "./crash.js";
import { CHAIN, config } from "./fixture.js";

/**
 * The hang guard of one crash point (a crashed deployment and its resume, two deployments at most). A suite that loops
 * over every store call sets its timeout from the number of points, so its bound grows with its work, not with luck: a
 * loop that outlives a fixed timeout keeps reverting the node's snapshots under the next test.
 */
export const PER_CRASH_POINT_MS = 60_000;

/**
 * Asserts that `run` ends in the injected crash; anything else (it finished, or failed another way) names what it
 * got, so a failure on a loaded CI machine says why rather than only where.
 */
export async function crashes(run: Promise<unknown>, what: string): Promise<void> {
  let got: unknown;
  try {
    await run;
  } catch (e) {
    if (e instanceof InjectedCrash) return;
    got = e;
  }
  const how =
    got === undefined
      ? "it finished"
      : `${(got as { code?: string }).code ?? (got as Error).name}: ${(got as Error).message}`;
  assert.fail(`${what}: expected the injected crash, ${got === undefined ? how : `got ${how}`}`);
}

/** What a clean first deployment did: its store calls, the executor's nonce after it, its record. */
export interface CleanRun {
  calls: string[];
  nonce: number;
  record: ProgramRecord;
}

/**
 * The shared fixture of the resume suites (one per file, so mocha's workers run them side by
 * side): a node, a clean first deployment recorded through a CrashingStore that never crashes,
 * and a snapshot before it that `fresh()` returns to.
 */
export function resumeFixture() {
  const f = {} as {
    node: DevNode;
    executor: Wallet;
    brand: Wallet;
    clean: CleanRun;
    snap: string;
  };

  before(async () => {
    f.node = await startNode();
    [f.executor, f.brand] = f.node.wallets as [Wallet, Wallet];
    f.snap = await f.node.snapshot();
    const store = new CrashingStore(new MemoryStore());
    const record = await deployProgram(config(f.brand), f.executor, store, { chain: CHAIN });
    f.clean = { calls: store.calls, nonce: await f.node.provider.getTransactionCount(f.executor.address), record };
  });
  after(() => f.node.stop());

  const fresh = async () => {
    await f.node.revert(f.snap);
    f.snap = await f.node.snapshot();
  };

  /** The same end as the clean run: same addresses and roles, one program, no extra transaction. */
  const assertSameEnd = async (record: ProgramRecord, what: string) => {
    const { clean, node } = f;
    assert.deepEqual(record.addresses, clean.record.addresses, what);
    assert.equal(record.programFactory, clean.record.programFactory, what);
    assert.equal(record.collateralAsset, clean.record.collateralAsset, what);
    assert.deepEqual(record.roles, clean.record.roles, what);
    const pf = new Contract(record.programFactory, loadArtifact("ProgramFactory").abi, node.provider);
    assert.equal(await pf.programCount(), 1n, `${what}: one program`);
    assert.equal(
      await node.provider.getTransactionCount(f.executor.address),
      clean.nonce,
      `${what}: no extra transaction`,
    );
  };

  /** Crashes a first deployment at every store call in `mode`, resumes with the same store, checks the end. */
  const crashAtEveryStoreCall = async (mode: "before" | "after") => {
    const { clean, brand, executor } = f;
    for (let i = 0; i < clean.calls.length; i++) {
      await fresh();
      const inner = new MemoryStore();
      const crashing = new CrashingStore(inner, i, mode);
      const what = `crash ${mode} call ${i} (${clean.calls[i]})`;
      await crashes(deployProgram(config(brand), executor, crashing, { chain: CHAIN }), what);
      const record = await deployProgram(config(brand), executor, inner, { chain: CHAIN });
      await assertSameEnd(record, what);
      assert.deepEqual(await inner.getProgram(CHAIN.chainId, "acme"), record, what);
    }
  };

  return { f, fresh, assertSameEnd, crashAtEveryStoreCall };
}
