import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import {
  DeployerError,
  importProgram,
  MemoryStore,
  upgrade,
  verifyProgram,
  type ProgramRecord,
  type Release,
} from "../src/index.js";
import type { DevNode } from "@points/testkit";
import { CHAIN, deployAcme } from "./helpers/fixture.js";

/** What chain state cannot tell: when the manifest was written, how the mock collateral was sent, upgrade tx facts. */
function comparable(p: ProgramRecord) {
  const { createdAt: _c, upgrades, collateralMock, ...rest } = structuredClone(p);
  return {
    ...rest,
    collateralMock: collateralMock && {
      artifact: collateralMock.artifact,
      address: collateralMock.address,
      codeHash: collateralMock.codeHash,
    },
    upgrades: upgrades.map((u) => [u.contract, u.fromArtifact, u.toArtifact, u.oldImplementation, u.newImplementation]),
  };
}

const code = (c: string) => (e: unknown) => e instanceof DeployerError && e.code === c;

describe("importProgram: a program lost from the manifest, rebuilt from chain state", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  let original: ProgramRecord;
  let release: Release;
  const nonces = () => Promise.all([executor, brand].map((w) => node.provider.getTransactionCount(w.address)));

  before(async () => {
    ({ node, executor, brand, store } = await deployAcme());
    // An upgrade since birth: history the import must find on chain.
    const done = await upgrade((await store.getProgram(CHAIN.chainId, "acme"))!, "points", "PointsV2Mock", {
      signer: brand,
      store,
    });
    assert.ok(done.tx);
    original = (await store.getProgram(CHAIN.chainId, "acme"))!;
    release = (await store.getRelease(CHAIN.chainId))!;
  });
  after(() => node.stop());

  it("import_withTheReleaseKnown_rebuildsTheManifest_asTheChainTellsIt_andSendsNothing", async () => {
    const lost = new MemoryStore();
    await lost.saveRelease(release);
    const before = await nonces();
    const result = await importProgram("acme", node.provider, lost);
    assert.equal(result.written, true);
    assert.deepEqual(result.changes, [
      `points: recorded the storage layout of PointsV2Mock at ${original.contracts.points!.implementation}`,
      `points: the chain runs ${original.contracts.points!.implementation} (PointsV2Mock), ` +
        `the record had ${release.implementations.points} (Points)`,
    ]);
    const imported = (await lost.getProgram(CHAIN.chainId, "acme"))!;
    assert.deepEqual(comparable(imported), comparable(original));
    assert.deepEqual(
      imported.upgrades.map((u) => u.status),
      ["executed"],
    );
    assert.deepEqual(await nonces(), before, "nothing sent");
    await verifyProgram(imported, node.provider);

    // An upgrade works from the imported manifest (its layouts are the recorded ones).
    const next = await upgrade(imported, "factory", "FactoryV2Mock", { signer: brand, store: lost });
    assert.ok(next.tx);
    await verifyProgram(next.program, node.provider);
  });

  it("import_withTheReleaseManifestLostToo_findsTheProgramOnlyOnTheNamedFactory", async () => {
    const empty = new MemoryStore();
    await assert.rejects(
      importProgram("acme", node.provider, empty),
      (e: unknown) =>
        code("PROGRAM_NOT_FOUND")(e) &&
        (e as Error).message ===
          `import: no ProgramFactory known on chain 31337 has a program "acme"; name the factory it was deployed with: --program-factory <address>`,
    );
    assert.equal(await empty.getProgram(CHAIN.chainId, "acme"), undefined);
    const result = await importProgram("acme", node.provider, empty, { programFactory: release.programFactory });
    assert.equal(result.written, true);
    const imported = result.program;
    assert.equal(imported.addresses.points, original.addresses.points);
    assert.equal(imported.contracts.factory!.artifact, "FactoryV2Mock");
    // Layouts from the build on disk equal the ones recorded at release time.
    for (const k of ["collateralVault", "pspVault"] as const) {
      const hash = imported.contracts[k]!.implementationCodeHash;
      assert.deepEqual(imported.layouts![hash], release.layouts![hash]);
    }
  });

  it("import_neverOverwritesAManifest_ofAnotherProgram_andIsANoOpForTheSameOne", async () => {
    const again = await importProgram("acme", node.provider, store);
    assert.equal(again.written, false);
    const other = new MemoryStore();
    await other.saveRelease(release);
    const foreign = { ...structuredClone(original), txHash: `0x${"ab".repeat(32)}` };
    await other.saveProgram(foreign);
    await assert.rejects(
      importProgram("acme", node.provider, other),
      (e: unknown) =>
        code("BRAND_EXISTS")(e) &&
        (e as Error).message ===
          `import: the manifest of "acme" records another program (${original.addresses.points}); not overwritten`,
    );
    assert.deepEqual(await other.getProgram(CHAIN.chainId, "acme"), foreign);
  });

  it("import_ofABrandNoKnownFactoryHas_isRefused", async () => {
    const lost = new MemoryStore();
    await lost.saveRelease(release);
    await assert.rejects(importProgram("nobody", node.provider, lost), code("PROGRAM_NOT_FOUND"));
  });
});
