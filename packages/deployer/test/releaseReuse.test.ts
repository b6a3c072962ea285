/**
 * A new release reuses the implementations an earlier release of the chain (in the same store)
 * deployed with the same code: a version bump that changes one contract deploys only that
 * contract's implementation and the ProgramFactory.
 */
import assert from "node:assert/strict";
import { Contract, type Wallet } from "ethers";
import { startNode, type DevNode } from "@points/testkit";
import {
  deployProgram,
  ensureRelease,
  loadArtifact,
  MemoryStore,
  verifyProgram,
  type ProgramRecord,
  type Release,
} from "../src/index.js";
import { creationGasBound, releaseGasBound } from "../src/createTransactions.js";
import { CrashingStore } from "./helpers/crash.js";
import { changedBuild } from "./helpers/changedBuild.js";
import { CHAIN, config } from "./helpers/fixture.js";
import { crashes } from "./helpers/resume.js";

const KEYS = ["points", "factory", "collateralVault", "pspVault", "oracle"] as const;

describe("ensureRelease: a new release reuses the implementations an earlier release deployed", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  /** Release 0.1.0 (everything deployed), 0.2.0 (same code), 0.3.0 (Oracle changed). */
  let a: Release;
  let b: Release;
  let c: Release;
  /** Executor nonces before and after each release. */
  const nonces: number[] = [];
  let program: ProgramRecord;

  const nonce = () => node.provider.getTransactionCount(executor.address, "pending");

  // One fixture: the three releases in order, then a program on release 0.2.0.
  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
    store = new MemoryStore();
    nonces.push(await nonce());
    a = await ensureRelease(CHAIN, executor, store, { version: "0.1.0" });
    nonces.push(await nonce());
    b = await ensureRelease(CHAIN, executor, store, { version: "0.2.0" });
    nonces.push(await nonce());
    c = await ensureRelease(CHAIN, executor, store, { version: "0.3.0", contractsDir: changedBuild("oracle/Oracle") });
    nonces.push(await nonce());
    program = await deployProgram(config(brand), executor, store, { chain: CHAIN, version: "0.2.0" });
  });
  after(() => node?.stop());

  it("theFirstRelease_deploysFiveImplementationsAndTheProgramFactory_noneReused", () => {
    assert.equal(nonces[1] - nonces[0], 6);
    for (const k of KEYS) assert.equal(a.contracts[k].reusedFrom, undefined, k);
  });

  it("aVersionBump_sameCode_reusesAllFive_sendsOnlyTheProgramFactory_recordsReusedFrom", async () => {
    assert.equal(nonces[2] - nonces[1], 1, "only the ProgramFactory is deployed");
    assert.deepEqual(b.implementations, a.implementations);
    for (const k of KEYS) {
      assert.deepEqual(
        b.contracts[k],
        {
          artifact: a.contracts[k].artifact,
          address: a.implementations[k],
          codeHash: a.contracts[k].codeHash,
          reusedFrom: "release 0.1.0",
        },
        k,
      );
    }
    assert.notEqual(b.programFactory, a.programFactory);
    assert.equal(b.contracts.programFactory.nonce, nonces[1]);
    assert.deepEqual(Object.keys(b.layouts!).sort(), Object.keys(a.layouts!).sort());
    const pf = new Contract(b.programFactory, loadArtifact("ProgramFactory").abi, node.provider);
    assert.equal(await pf.version(), "0.2.0");
    assert.deepEqual(
      [...(await pf.implementations())],
      KEYS.map((k) => a.implementations[k]),
    );
    assert.deepEqual(await store.getRelease(CHAIN.chainId, "0.2.0"), b);
  });

  it("aVersionBump_oneContractChanged_deploysOnlyItAndTheProgramFactory", () => {
    assert.equal(nonces[3] - nonces[2], 2, "the Oracle and the ProgramFactory");
    assert.equal(c.contracts.oracle.reusedFrom, undefined);
    assert.equal(c.contracts.oracle.nonce, nonces[2]);
    assert.notEqual(c.implementations.oracle, a.implementations.oracle);
    assert.notEqual(c.contracts.oracle.codeHash, a.contracts.oracle.codeHash);
    for (const k of KEYS.filter((k) => k !== "oracle")) {
      assert.equal(c.implementations[k], a.implementations[k], k);
      assert.equal(c.contracts[k].reusedFrom, "release 0.1.0", k);
    }
    assert.equal(c.contracts.programFactory.nonce, nonces[2] + 1);
  });

  it("aProgramOnTheReusingRelease_verifies", async () => {
    assert.equal(program.programFactory, b.programFactory);
    assert.equal(program.contracts.points!.implementation, a.implementations.points);
    await verifyProgram(program, node.provider);
  });

  it("theValidateBalanceBound_countsOnlyTheContractsTheReleaseDeploys", () => {
    const bound = (name: string) => creationGasBound(loadArtifact(name).bytecode, loadArtifact(name));
    const factoryOnly = releaseGasBound(undefined, KEYS);
    assert.equal(factoryOnly, bound("ProgramFactory"));
    assert.equal(
      releaseGasBound(undefined, ["points", "factory", "collateralVault", "pspVault"]),
      factoryOnly + bound("Oracle"),
    );
    const all = ["Points", "Factory", "CollateralVault", "PSPVault", "Oracle"].reduce(
      (g, n) => g + bound(n),
      factoryOnly,
    );
    assert.equal(releaseGasBound(), all);
  });

  it("theReleaseAgain_isSkipped_nothingSent", async () => {
    const before = await nonce();
    assert.deepEqual(await ensureRelease(CHAIN, executor, store, { version: "0.2.0" }), b);
    assert.equal(await nonce(), before);
  });

  it("aReusingRelease_resumedAfterACrashAtEveryStoreCall_sendsOnlyTheChangedImplementationAndTheProgramFactory", async function () {
    this.timeout(600_000);
    const dir = changedBuild("points/Points");
    const opts = { version: "0.4.0", contractsDir: dir };
    /** The store as the fixture left it: releases 0.1.0 to 0.3.0. */
    const base = async () => {
      const s = new MemoryStore();
      for (const r of [a, b, c]) await s.saveRelease(r);
      return s;
    };
    let snap = await node.snapshot();
    const start = await nonce();
    const probe = new CrashingStore(await base());
    const clean = await ensureRelease(CHAIN, executor, probe, opts);
    assert.equal((await nonce()) - start, 2, "Points and the ProgramFactory");
    assert.equal(clean.contracts.points.reusedFrom, undefined);
    for (const k of KEYS.filter((k) => k !== "points")) {
      // Only the Points build differs: the Oracle is 0.1.0's again, not 0.3.0's changed one.
      assert.equal(clean.implementations[k], a.implementations[k], k);
      assert.equal(clean.contracts[k].reusedFrom, "release 0.1.0", k);
    }
    for (const mode of ["before", "after"] as const) {
      for (let at = 0; at < probe.calls.length; at++) {
        await node.revert(snap);
        snap = await node.snapshot();
        const inner = await base();
        const what = `crash ${mode} ${probe.calls[at]} (#${at})`;
        await crashes(ensureRelease(CHAIN, executor, new CrashingStore(inner, at, mode), opts), what);
        const resumed = await ensureRelease(CHAIN, executor, inner, opts);
        assert.equal((await nonce()) - start, 2, `${what}: one set of contracts, the clean run's nonce count`);
        assert.deepEqual(resumed.implementations, clean.implementations, what);
        assert.equal(resumed.programFactory, clean.programFactory, what);
        for (const k of KEYS)
          assert.equal(resumed.contracts[k].reusedFrom, clean.contracts[k].reusedFrom, `${what}: ${k}`);
      }
    }
    await node.revert(snap);
  });

  it("aDeployOnANewSameCodeVersion_sendsOnlyTheProgramFactory_theMockCollateralAndTheProgram", async () => {
    const before = await nonce();
    const beta = await deployProgram(
      config(brand, { brand: "beta", tokenName: "Beta Points", tokenSymbol: "BETA" }),
      executor,
      store,
      {
        chain: CHAIN,
        version: "0.5.0",
      },
    );
    assert.equal((await nonce()) - before, 3);
    const release = (await store.getRelease(CHAIN.chainId, "0.5.0"))!;
    assert.equal(beta.programFactory, release.programFactory);
    for (const k of KEYS) assert.equal(release.contracts[k].reusedFrom, "release 0.1.0", k);
    // No oracle configured: the program has no Oracle proxy.
    assert.deepEqual(Object.keys(beta.contracts).sort(), ["collateralVault", "factory", "points", "pspVault"]);
    for (const [k, c] of Object.entries(beta.contracts)) {
      assert.equal(c.implementation, a.implementations[k as (typeof KEYS)[number]], k);
    }
    await verifyProgram(beta, node.provider);
  });
});
