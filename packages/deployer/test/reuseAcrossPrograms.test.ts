/**
 * An upgrade reuses an implementation of the new build that another program of the chain (in the
 * same store) already deployed, instead of deploying a second identical copy.
 */
import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import {
  deployProgram,
  IMPLEMENTATION_SLOT,
  MemoryStore,
  upgrade,
  validateUpgrade,
  verifyProgram,
  type ProgramRecord,
} from "../src/index.js";
import { CHAIN, config, deployAcme } from "./helpers/fixture.js";

describe("upgrade: an implementation another program of the chain deployed is reused", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  let acme: ProgramRecord;
  let beta: ProgramRecord;

  const nonce = (w: Wallet) => node.provider.getTransactionCount(w.address, "pending");
  const implOf = async (proxy: string) =>
    "0x" + (await node.provider.getStorage(proxy, IMPLEMENTATION_SLOT)).slice(-40).toLowerCase();
  /** The executor deploys the implementation; the brand wallet (the admin) sends the printed upgrade. */
  const proposeAndExecute = async (program: ProgramRecord) => {
    const r = await upgrade(program, "points", "PointsV2Mock", { signer: executor, send: false, store });
    await (await brand.sendTransaction({ to: r.unsignedTx!.to, data: r.unsignedTx!.data })).wait();
    return r;
  };

  before(async () => {
    ({ node, executor, brand, store, program: acme } = await deployAcme());
    beta = await deployProgram(config(brand, { brand: "beta", tokenSymbol: "BETA" }), executor, store, {
      chain: CHAIN,
    });
  });
  after(() => node.stop());

  it("theSecondProgram_reusesTheFirstProgramsImplementation_oneDeploymentFewer", async () => {
    const n0 = await nonce(executor);
    const first = await proposeAndExecute(acme);
    assert.equal(first.deployed, true);
    assert.equal(await nonce(executor), n0 + 1, "the first upgrade deploys the implementation");

    // Before the second upgrade, validate (reads only) already names the implementation it reuses.
    const report = await validateUpgrade(beta, "points", "PointsV2Mock", node.provider, { store });
    assert.deepEqual([report.reuse, report.reusedFrom], [first.newImplementation, "program acme"]);

    const second = await proposeAndExecute(beta);
    assert.equal(second.deployed, false);
    assert.equal(second.reusedFrom, "program acme");
    assert.equal(second.newImplementation, first.newImplementation);
    assert.equal(await nonce(executor), n0 + 1, "the second upgrade deploys nothing");
    assert.equal(await implOf(beta.addresses.points!), first.newImplementation.toLowerCase());
    assert.equal(await implOf(acme.addresses.points!), first.newImplementation.toLowerCase());
    await verifyProgram(second.program, node.provider);
    const saved = await store.getProgram(CHAIN.chainId, "beta");
    assert.deepEqual(
      saved!.upgrades.map((u) => [u.contract, u.status, u.newImplementation]),
      [["points", "proposed", first.newImplementation]],
    );
    // The reused implementation's layout is recorded for beta too, for its next upgrade.
    assert.ok(Object.values(saved!.layouts ?? {}).some((l) => l.address === first.newImplementation));
  });

  it("withoutTheStore_theOtherProgramIsUnknown_andADryRunWouldDeploy", async () => {
    const r = await upgrade(beta, "factory", "FactoryV2Mock", { provider: node.provider, dryRun: true });
    assert.equal(r.dryRun!.implementation.reused, false);
    const acmeFactory = await proposeFactoryV2(acme);
    const known = await upgrade(beta, "factory", "FactoryV2Mock", { provider: node.provider, dryRun: true, store });
    assert.deepEqual(known.dryRun!.implementation, {
      address: acmeFactory,
      reused: true,
      from: "program acme",
    });
    const unknown = await upgrade(beta, "factory", "FactoryV2Mock", { provider: node.provider, dryRun: true });
    assert.equal(unknown.dryRun!.implementation.reused, false, "only the manifests the tool knows are searched");
  });

  /** FactoryV2Mock deployed by the executor for `program` and proposed, not executed. */
  async function proposeFactoryV2(program: ProgramRecord): Promise<string> {
    const r = await upgrade(program, "factory", "FactoryV2Mock", { signer: executor, send: false, store });
    assert.equal(r.deployed, true);
    return r.newImplementation;
  }
});
