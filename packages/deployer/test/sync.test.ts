import assert from "node:assert/strict";
import { ContractFactory, keccak256, type Wallet } from "ethers";
import {
  DeployerError,
  loadArtifact,
  MemoryStore,
  syncProgram,
  upgrade,
  verifyProgram,
  type ProgramRecord,
} from "../src/index.js";
import type { DevNode } from "@points/testkit";
import { at, CHAIN, deployAcme } from "./helpers/fixture.js";

/** Upgrades executed outside the deployer (a multisig, a script) and how the record catches up. */
describe("syncProgram: the record follows the chain", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  const saved = async () => (await store.getProgram(CHAIN.chainId, "acme"))!;
  const nonces = () => Promise.all([executor, brand].map((w) => node.provider.getTransactionCount(w.address)));

  before(async () => ({ node, executor, brand, store } = await deployAcme()));
  after(() => node.stop());

  it("sync_afterAProposedUpgradeExecutedByTheAdminOutside_updatesTheRecord_andVerifyPasses", async () => {
    const proposal = await upgrade(await saved(), "points", "PointsV2Mock", { signer: executor, store });
    assert.ok(proposal.unsignedTx);
    await (await brand.sendTransaction({ to: proposal.unsignedTx.to, data: proposal.unsignedTx.data })).wait();
    const before = await saved();
    await assert.rejects(
      upgrade(before, "points", "PointsV2Mock", { signer: brand, store }),
      (e: unknown) =>
        e instanceof DeployerError &&
        e.code === "VERIFY_FAILED" &&
        e.message ===
          `points: the chain runs ${proposal.newImplementation}, the record has ${proposal.oldImplementation}; ` +
            "refresh the record first: points-deployer sync --brand acme (syncProgram in the library)",
    );
    const result = await syncProgram(before, node.provider, { store });
    assert.deepEqual(result.changes, [
      `points: the chain runs ${proposal.newImplementation} (PointsV2Mock), the record had ${proposal.oldImplementation} (Points)`,
    ]);
    const after = await saved();
    assert.equal(after.contracts.points!.implementation, proposal.newImplementation);
    assert.equal(after.contracts.points!.artifact, "PointsV2Mock");
    assert.deepEqual(
      after.upgrades.map((u) => [u.contract, u.status]),
      [["points", "executed"]],
    );
    await verifyProgram(after, node.provider);
    assert.deepEqual((await syncProgram(after, node.provider, { store })).changes, []);
  });

  it("upgrade_proposedTwice_deploysOneImplementation", async () => {
    const first = await upgrade(await saved(), "factory", "FactoryV2Mock", { signer: executor, store });
    assert.equal(first.deployed, true);
    const before = await nonces();
    const second = await upgrade(await saved(), "factory", "FactoryV2Mock", { signer: executor, store });
    assert.equal(second.deployed, false);
    assert.equal(second.newImplementation, first.newImplementation);
    assert.deepEqual(await nonces(), before, "nothing was sent for the second proposal");
  });

  it("sync_refusesAnImplementationThatIsNotABuildOfTheNamedArtifact_andSavesNothing", async () => {
    const v2 = loadArtifact("CollateralVaultV2Mock");
    const impl = await new ContractFactory(v2.abi, v2.bytecode, executor).deploy();
    await impl.waitForDeployment();
    const address = await impl.getAddress();
    const vault = at(await saved(), "collateralVault", brand);
    await (await vault.upgradeToAndCall(address, "0x")).wait();
    const before = await saved();
    const codeHash = keccak256(await node.provider.getCode(address));
    await assert.rejects(
      syncProgram(before, node.provider, { store, artifacts: { collateralVault: "CollateralVault" } }),
      (e: unknown) =>
        e instanceof DeployerError &&
        e.code === "VERIFY_FAILED" &&
        e.message ===
          `program acme: cannot sync the record:\n- collateralVault: the chain runs ${address} (code hash ${codeHash}), ` +
            "which is not a build of CollateralVault",
    );
    assert.deepEqual(await saved(), before, "nothing saved");
    const imported = await syncProgram(before, node.provider, {
      store,
      artifacts: { collateralVault: "CollateralVaultV2Mock" },
    });
    assert.deepEqual(imported.changes, [
      `collateralVault: recorded the storage layout of CollateralVaultV2Mock at ${address}`,
      `collateralVault: the chain runs ${address} (CollateralVaultV2Mock), the record had ${before.contracts.collateralVault!.implementation} (CollateralVault)`,
    ]);
    await verifyProgram(imported.program, node.provider);
  });

  it("upgrade_ofAnImplementationWithoutARecordedLayout_isRefused_sayingHowToImportIt", async () => {
    const record = structuredClone(await saved());
    const running = record.contracts.pspVault!;
    delete record.layouts![running.implementationCodeHash];
    await store.saveProgram(record);
    const before = await nonces();
    await assert.rejects(
      upgrade(record, "pspVault", "PSPVaultV2Mock", { signer: brand, store }),
      (e: unknown) =>
        e instanceof DeployerError &&
        e.code === "UNSAFE_UPGRADE" &&
        e.message ===
          `pspVault: no storage layout is recorded for the implementation it runs (${running.implementation}, ` +
            `code hash ${running.implementationCodeHash}); import it from the build it was deployed from: ` +
            "points-deployer sync --brand acme --artifact pspVault=<ContractName> [--contracts-dir <that build>]",
    );
    assert.deepEqual(await nonces(), before);
    const imported = await syncProgram(record, node.provider, { store });
    assert.deepEqual(imported.changes, [
      `pspVault: recorded the storage layout of PSPVault at ${running.implementation}`,
    ]);
    const done = await upgrade(await saved(), "pspVault", "PSPVaultV2Mock", { signer: brand, store });
    assert.ok(done.tx);
    await verifyProgram(done.program, node.provider);
  });

  it("upgrade_toAContractWithoutProxiableUUIDOrDisabledInitializers_isRefusedBeforeAnyTransaction", async () => {
    const before = await nonces();
    await assert.rejects(upgrade(await saved(), "oracle", "MockStablecoin", { signer: brand, store }), (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "INVALID_CONFIG");
      assert.equal(e.message, "contract: program acme has no oracle");
      return true;
    });
    await assert.rejects(
      upgrade(await saved(), "collateralVault", "MockStablecoin", { signer: brand, store }),
      (e: unknown) => {
        assert.ok(e instanceof DeployerError);
        assert.equal(e.code, "UNSAFE_UPGRADE");
        assert.match(e.message, /it has no proxiableUUID\(\): a proxy upgraded to it could never be upgraded again/);
        assert.match(e.message, /its constructor does not call _disableInitializers\(\)/);
        return true;
      },
    );
    assert.deepEqual(await nonces(), before);
  });
});
