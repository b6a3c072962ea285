/** sync on an upgrade executed outside the deployer that the deployer would have refused, and on a lost artifact. */
import assert from "node:assert/strict";
import { ContractFactory, keccak256, type Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import { DeployerError, loadArtifact, MemoryStore, syncProgram } from "../src/index.js";
import { at, CHAIN, deployAcme } from "./helpers/fixture.js";

describe("syncProgram: warnings and artifacts this build lacks", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  const saved = async () => (await store.getProgram(CHAIN.chainId, "acme"))!;

  async function outsideUpgrade(key: "points" | "collateralVault", artifact: string): Promise<string> {
    const a = loadArtifact(artifact);
    const impl = await new ContractFactory(a.abi, a.bytecode, executor).deploy();
    await impl.waitForDeployment();
    const address = await impl.getAddress();
    await (await at(await saved(), key, brand).upgradeToAndCall(address, "0x")).wait();
    return address;
  }

  before(async () => ({ node, executor, brand, store } = await deployAcme()));
  after(() => node.stop());

  it("sync_ofAnExecutedUpgradeThatBreaksTheLayout_recordsIt_warns_andMarksTheUpgradeUnsafe", async () => {
    const before = await saved();
    const address = await outsideUpgrade("points", "PointsV2UnsafeMock");
    const result = await syncProgram(before, node.provider, { store, artifacts: { points: "PointsV2UnsafeMock" } });
    assert.deepEqual(result.changes, [
      `points: recorded the storage layout of PointsV2UnsafeMock at ${address}`,
      `points: the chain runs ${address} (PointsV2UnsafeMock), the record had ${before.contracts.points!.implementation} (Points)`,
    ]);
    assert.equal(result.warnings.length, 1);
    const prefix =
      "points: the chain runs an upgrade the deployer would have refused: PointsV2UnsafeMock: refused as an upgrade of " +
      `Points at ${before.contracts.points!.implementation}: storage layout incompatible`;
    assert.ok(result.warnings[0].startsWith(prefix), result.warnings[0]);
    const after = await saved();
    assert.equal(after.contracts.points!.artifact, "PointsV2UnsafeMock");
    assert.deepEqual(
      after.upgrades.map((u) => [u.contract, u.status, u.unsafe?.startsWith("PointsV2UnsafeMock: refused")]),
      [["points", "executed", true]],
    );
  });

  it("sync_ofASafeExecutedUpgrade_warnsNothing", async () => {
    const address = await outsideUpgrade("collateralVault", "CollateralVaultV2Mock");
    const result = await syncProgram(await saved(), node.provider, {
      store,
      artifacts: { collateralVault: "CollateralVaultV2Mock" },
    });
    assert.equal(result.changes.length, 2);
    assert.deepEqual(result.warnings, []);
    assert.equal((await saved()).contracts.collateralVault!.implementation, address);
  });

  it("sync_whenTheRecordedArtifactIsNotInThisBuild_pointsToArtifact_insteadOfARTIFACTS_MISSING", async () => {
    const record = structuredClone(await saved());
    // The record was written by another build, whose Factory artifact this one lacks.
    record.contracts.factory!.artifact = "FactoryGoneMock";
    delete record.layouts![record.contracts.factory!.implementationCodeHash];
    const impl = record.contracts.factory!.implementation;
    const hash = keccak256(await node.provider.getCode(impl));
    await assert.rejects(
      syncProgram(record, node.provider),
      (e: unknown) =>
        e instanceof DeployerError &&
        e.code === "VERIFY_FAILED" &&
        e.message ===
          `program acme: cannot sync the record:\n- factory: the chain runs ${impl} (code hash ${hash}), ` +
            "which is not a build of FactoryGoneMock (not in this build); name the contract it was built from with " +
            "--artifact factory=<ContractName>",
    );
  });
});
