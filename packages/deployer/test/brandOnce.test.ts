/**
 * A brand exists once per chain: a second `deploy` of a live
 * brand after a version bump or after a contract change is refused before anything is sent or
 * written, and a recorded release is never replaced by other code under the same version.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Wallet } from "ethers";
import { contractsDir, startNode, type DevNode } from "@points/testkit";
import { deployProgram, isDeployerError, JsonFileStore, type ProgramRecord } from "../src/index.js";
import { changedBuild } from "./helpers/changedBuild.js";
import { CHAIN, config } from "./helpers/fixture.js";

describe("deploy: a brand exists once per chain, across ProgramFactory releases", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let dir: string;
  let store: JsonFileStore;
  let program: ProgramRecord;
  const files = () =>
    Object.fromEntries(
      readdirSync(path.join(dir, "31337")).map((f) => [f, readFileSync(path.join(dir, "31337", f), "utf8")]),
    );

  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
    dir = mkdtempSync(path.join(tmpdir(), "deployer-brand-once-"));
    store = new JsonFileStore(dir);
    program = await deployProgram(config(brand), executor, store, { chain: CHAIN });
  });
  after(async () => node?.stop());

  /** The deploy is refused with `code`, nothing is sent and no manifest changes. */
  async function refusedUnchanged(run: () => Promise<unknown>, code: string, message: RegExp) {
    const before = files();
    const nonce = await node.provider.getTransactionCount(executor.address, "pending");
    await assert.rejects(run, (e: unknown) => isDeployerError(e) && e.code === code && message.test(e.message));
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), nonce, "nothing sent");
    assert.deepEqual(files(), before, "manifests byte-identical, none added");
  }

  it("afterAVersionBump_aSecondAcme_isRefusedBRAND_EXISTS_nothingSent_manifestByteIdentical", async () => {
    await refusedUnchanged(
      () => deployProgram(config(brand), executor, store, { chain: CHAIN, version: "0.2.0" }),
      "BRAND_EXISTS",
      new RegExp(
        `"acme" already has a program on chain 31337 \\(Points ${program.addresses.points}, ProgramFactory ${program.programFactory}\\)`,
      ),
    );
  });

  it("afterAContractChange_sameVersion_aSecondAcme_isRefusedBRAND_EXISTS_nothingSent", async () => {
    const changed = changedBuild("deploy/ProgramFactory");
    await refusedUnchanged(
      () => deployProgram(config(brand), executor, store, { chain: CHAIN, contractsDir: changed }),
      "BRAND_EXISTS",
      /"acme" already has a program/,
    );
  });

  it("afterAContractChange_sameVersion_aNewBrand_isRefused_theRecordedReleaseIsNotReplaced", async () => {
    const changed = changedBuild("deploy/ProgramFactory");
    const before = files();
    const nonce = await node.provider.getTransactionCount(executor.address, "pending");
    await assert.rejects(
      () => deployProgram(config(brand, { brand: "beta" }), executor, store, { chain: CHAIN, contractsDir: changed }),
      (e: unknown) =>
        isDeployerError(e, "INVALID_CONFIG") &&
        /release: 0\.1\.0 on chain 31337 is ProgramFactory 0x[0-9a-fA-F]{40}, other code than this build; bump the contracts version/.test(
          e.message,
        ),
    );
    assert.equal(await node.provider.getTransactionCount(executor.address, "pending"), nonce, "nothing sent");
    const after = files();
    // Only beta's own manifest appears (its failed stages); the release and acme are untouched.
    assert.equal(after["release-0.1.0.json"], before["release-0.1.0.json"]);
    assert.equal(after["acme.json"], before["acme.json"]);
  });

  it("aRerunOfTheSameDeploy_isStillSkipped_notRefused", async () => {
    const again = await deployProgram(config(brand), executor, store, { chain: CHAIN });
    assert.equal(again.txHash, program.txHash);
    assert.equal(again.addresses.points, program.addresses.points);
  });
});
