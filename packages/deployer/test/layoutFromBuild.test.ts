/**
 * A layout is recorded only from the build whose code is deployed: a stale
 * program module (after `hardhat compile` without `pnpm build`) deploys other code than the
 * build on disk whose storage layout would be recorded; the release is refused before sending.
 */
import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import { COMPILED } from "@points/contracts/program/code";
import { startNode, type DevNode } from "@points/testkit";
import { ensureRelease, isDeployerError, loadArtifact, MemoryStore } from "../src/index.js";
import { withLayout } from "../src/layouts.js";
import { CHAIN } from "./helpers/fixture.js";

describe("layouts: recorded only from the build that is deployed", () => {
  let node: DevNode;
  let executor: Wallet;
  const modules = COMPILED as Record<string, unknown>;
  const real = COMPILED.Points;
  before(async () => {
    node = await startNode();
    [executor] = node.wallets;
  });
  after(async () => {
    modules.Points = real;
    await node?.stop();
  });

  it("aStaleProgramModule_releaseRefusedARTIFACTS_MISSING_nothingSent_nothingRecorded", async () => {
    // The module still holds an older Points whose layout differs from the build on disk.
    const old = loadArtifact("PointsV2UnsafeMock");
    modules.Points = { ...real, bytecode: old.bytecode, deployedBytecode: old.deployedBytecode };
    const store = new MemoryStore();
    const nonce = await node.provider.getTransactionCount(executor.address, "pending");
    try {
      await assert.rejects(
        () => ensureRelease(CHAIN, executor, store),
        (e: unknown) =>
          isDeployerError(e, "ARTIFACTS_MISSING") &&
          /release: the program module's Points is not the build on disk .*run pnpm build/.test(e.message),
      );
    } finally {
      modules.Points = real;
    }
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), nonce, "nothing sent");
    assert.equal(await store.getRelease(CHAIN.chainId), undefined);
  });

  it("withLayout_ofCodeThatIsNotTheBuildOnDisk_isRefused_theMatchingCodeIsRecordedUnderItsHash", () => {
    const points = loadArtifact("Points");
    const other = loadArtifact("PointsV2UnsafeMock").deployedBytecode;
    const at = "0x00000000000000000000000000000000000000aa";
    assert.throws(
      () => withLayout(undefined, other, points, at),
      (e: unknown) =>
        isDeployerError(e, "ARTIFACTS_MISSING") && /is not the build of Points on disk/.test((e as Error).message),
    );
    const ok = withLayout(undefined, points.deployedBytecode, points, at);
    assert.deepEqual(
      Object.values(ok).map((r) => r.artifact),
      ["Points"],
    );
  });
});
