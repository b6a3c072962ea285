import assert from "node:assert/strict";
import { Contract, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { deployProgram, loadArtifact, MemoryStore, type ProgramRecord } from "../src/index.js";
import { CrashingStore, InjectedCrash } from "./helpers/crash.js";
import { CHAIN, config } from "./helpers/fixture.js";

/**
 * Crash injected at every store call of a first deployment (release included, mock collateral),
 * before and after the call is recorded; a fresh call with the same store must end in the same
 * state with exactly one set of contracts and no extra transaction.
 */
describe("deployProgram: resume after a crash at any point", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let clean: { calls: string[]; nonce: number; record: ProgramRecord };
  let snap: string;

  async function fresh() {
    await node.revert(snap);
    snap = await node.snapshot();
  }

  async function assertSameEnd(record: ProgramRecord, what: string) {
    assert.deepEqual(record.addresses, clean.record.addresses, what);
    assert.equal(record.programFactory, clean.record.programFactory, what);
    assert.equal(record.collateralAsset, clean.record.collateralAsset, what);
    assert.deepEqual(record.roles, clean.record.roles, what);
    const pf = new Contract(record.programFactory, loadArtifact("ProgramFactory").abi, node.provider);
    assert.equal(await pf.programCount(), 1n, `${what}: one program`);
    assert.equal(
      await node.provider.getTransactionCount(executor.address),
      clean.nonce,
      `${what}: no extra transaction`,
    );
  }

  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
    snap = await node.snapshot();
    const store = new CrashingStore(new MemoryStore());
    const record = await deployProgram(config(brand), executor, store, { chain: CHAIN });
    clean = { calls: store.calls, nonce: await node.provider.getTransactionCount(executor.address), record };
  });
  after(() => node.stop());

  it("cleanRun_sendsSixReleaseTransactions_oneMock_andOneDeployment", () => {
    assert.equal(clean.nonce, 8);
    assert.ok(clean.calls.filter((c) => c.startsWith("stageTransaction")).length === 8);
  });

  for (const mode of ["before", "after"] as const) {
    it(`resume_afterCrash${mode === "before" ? "Before" : "After"}EveryStoreCall_endsInTheSameState_withOneSetOfContracts`, async () => {
      for (let i = 0; i < clean.calls.length; i++) {
        await fresh();
        const inner = new MemoryStore();
        const crashing = new CrashingStore(inner, i, mode);
        const what = `crash ${mode} call ${i} (${clean.calls[i]})`;
        await assert.rejects(deployProgram(config(brand), executor, crashing, { chain: CHAIN }), InjectedCrash, what);
        const record = await deployProgram(config(brand), executor, inner, { chain: CHAIN });
        await assertSameEnd(record, what);
        assert.deepEqual(await inner.getProgram(CHAIN.chainId, "acme"), record, what);
      }
    });
  }

  it("resume_withALostStore_findsReleaseByNonceAndProgramByBrand", async () => {
    for (const at of clean.calls.map((c, i) => [c, i] as const).filter(([c]) => c.startsWith("stageTransaction"))) {
      await fresh();
      const what = `crash after ${at[0]}, store lost`;
      await assert.rejects(
        deployProgram(config(brand), executor, new CrashingStore(new MemoryStore(), at[1], "after"), { chain: CHAIN }),
        InjectedCrash,
      );
      await assertSameEnd(await deployProgram(config(brand), executor, new MemoryStore(), { chain: CHAIN }), what);
    }
  });

  it("resume_waitsForTransactionsStillPending_whenTheCrashHitAfterSending", async () => {
    await fresh();
    await node.provider.send("evm_setAutomine", [false]);
    await node.provider.send("evm_setIntervalMining", [300]);
    try {
      const deployTx = clean.calls.findIndex((c) => c.startsWith("stageTransaction:deploy:ProgramFactory"));
      for (const at of [clean.calls.findIndex((c) => c.startsWith("stageTransaction:release")), deployTx]) {
        await fresh();
        const inner = new MemoryStore();
        // "before": the transaction is in the mempool, unrecorded, when the process dies.
        await assert.rejects(
          deployProgram(config(brand), executor, new CrashingStore(inner, at, "before"), { chain: CHAIN }),
          InjectedCrash,
        );
        await assertSameEnd(await deployProgram(config(brand), executor, inner, { chain: CHAIN }), `pending at ${at}`);
      }
    } finally {
      await node.provider.send("evm_setIntervalMining", [0]);
      await node.provider.send("evm_setAutomine", [true]);
    }
  });
});
