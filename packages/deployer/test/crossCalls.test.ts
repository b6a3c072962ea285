/**
 * An upgrade must keep what the other program contracts call: an implementation
 * of Points without burn(uint256) passes the layout checks, yet the Factory's redemptions would
 * revert; it is refused before anything is sent.
 */
import assert from "node:assert/strict";
import type { DevNode } from "@points/testkit";
import { isDeployerError, loadArtifact, validateUpgrade, type Artifact, type ProgramRecord } from "../src/index.js";
import { crossContractCalls } from "../src/crossCalls.js";
import { deployAcme } from "./helpers/fixture.js";

describe("upgrade: the cross-contract selector check", () => {
  let node: DevNode;
  let program: ProgramRecord;
  before(async () => ({ node, program } = await deployAcme()));
  after(async () => node?.stop());

  it("theBuildsASTs_nameWhatTheFactoryCallsOnPoints_mintBurnAndTheTransferAllowlist", () => {
    const points = crossContractCalls().get("points")!;
    assert.deepEqual(
      [...points.keys()].sort(),
      ["0x40c10f19", "0x42966c68", "0x48709a93", "0x1eee7e60"].sort(), // mint, burn, add/removeFromTransferWhitelist
    );
    assert.ok(points.get("0x42966c68")!.has("FactoryRedemption"), "burn is called by the Factory's redemption");
  });

  it("anImplementationWithoutBurn_isRefusedUNSAFE_UPGRADE_namingTheCaller_whileTheSameCodeWithBurnPasses", async () => {
    const v2 = loadArtifact("PointsV2Mock");
    const ok = await validateUpgrade(program, "points", v2, node.provider);
    assert.equal(ok.newArtifact, "PointsV2Mock");
    const abi = (v2.abi as { type: string; name?: string }[]).filter(
      (f) => !(f.type === "function" && f.name === "burn"),
    );
    const noBurn: Artifact = { ...v2, abi };
    await assert.rejects(
      () => validateUpgrade(program, "points", noBurn, node.provider),
      (e: unknown) =>
        isDeployerError(e, "UNSAFE_UPGRADE") &&
        e.message ===
          "points: PointsV2Mock lacks functions other program contracts call on it: burn(uint256) (called by FactoryRedemption)",
    );
  });
});
