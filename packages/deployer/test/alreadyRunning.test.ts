/** An upgrade to the code and layout a proxy already runs changes nothing: it says so and sends nothing. */
import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import { MemoryStore, upgrade, validateUpgrade, type ProgramRecord } from "../src/index.js";
import { CHAIN, deployAcme } from "./helpers/fixture.js";

describe("upgrade: to the code already running", () => {
  let node: DevNode;
  let brand: Wallet;
  let executor: Wallet;
  let store: MemoryStore;
  let program: ProgramRecord;
  const nonces = () =>
    Promise.all([executor, brand].map((w) => node.provider.getTransactionCount(w.address, "pending")));
  before(async () => ({ node, executor, brand, store, program } = await deployAcme()));
  after(() => node.stop());

  it("sent_unsigned_andDryRun_allAnswerAlreadyRunning_deployNothing_andRecordNothing", async () => {
    const before = await nonces();
    const saved = await store.getProgram(CHAIN.chainId, "acme");
    for (const opts of [
      { signer: brand, send: true, store },
      { signer: executor, send: false, store },
      { provider: node.provider, dryRun: true },
    ]) {
      const r = await upgrade(program, "points", "Points", opts);
      assert.equal(r.alreadyRunning, true);
      assert.equal(r.deployed, false);
      assert.equal(r.newImplementation, program.contracts.points!.implementation);
      assert.equal(r.tx, undefined);
      assert.equal(r.unsignedTx, undefined);
      assert.equal(r.dryRun, undefined);
      assert.deepEqual(r.program, program);
    }
    const report = await validateUpgrade(program, "points", "Points", node.provider, { store });
    assert.equal(report.alreadyRunning, true);
    assert.equal(report.reuse, undefined, "nothing to deploy, nothing to reuse");
    assert.deepEqual(await nonces(), before, "nothing sent");
    assert.deepEqual(await store.getProgram(CHAIN.chainId, "acme"), saved, "nothing recorded");
  });

  it("anUpgradeAskingACall_isNotAlreadyRunning_evenToTheSameCode", async () => {
    const r = await upgrade(program, "points", "Points", {
      provider: node.provider,
      dryRun: true,
      call: "0x8129fc1c", // initialize(): reverts on an initialized proxy; the call makes it a real upgrade
    });
    assert.equal(r.alreadyRunning, undefined);
    assert.ok(r.dryRun);
  });

  it("anotherContract_isNotAlreadyRunning", async () => {
    const r = await upgrade(program, "points", "PointsV2Mock", { provider: node.provider, dryRun: true });
    assert.equal(r.alreadyRunning, undefined);
    assert.equal(r.dryRun!.simulation.ok, true);
    const report = await validateUpgrade(program, "points", "PointsV2Mock", node.provider);
    assert.equal(report.alreadyRunning, undefined);
  });
});
