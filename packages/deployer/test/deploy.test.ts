import assert from "node:assert/strict";
import { Contract, id, keccak256, ZeroHash, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import {
  deployProgram,
  ensureRelease,
  loadArtifact,
  MemoryStore,
  verifyProgram,
  IMPLEMENTATION_ARTIFACTS,
  IMPLEMENTATION_SLOT,
  PROGRAM_CONTRACTS,
  storageLayoutOf,
} from "../src/index.js";
import type { ProgramRecord, Release } from "../src/index.js";
import { CHAIN, config } from "./helpers/fixture.js";

const ROLE = (name: string) => (name === "DEFAULT_ADMIN_ROLE" ? ZeroHash : id(name));

/** The roles at birth (docs/deployment.md#roles-at-birth), written out independently of the library's own table. */
const BIRTH_ROLES: Record<string, Record<string, "brand" | "executor" | "factory">> = {
  points: { DEFAULT_ADMIN_ROLE: "brand", PAUSER_ROLE: "brand", MINTER_ROLE: "factory" },
  factory: { DEFAULT_ADMIN_ROLE: "brand", PAUSER_ROLE: "brand", MANAGER_ROLE: "brand", EXECUTOR_ROLE: "executor" },
  collateralVault: { DEFAULT_ADMIN_ROLE: "brand", PAUSER_ROLE: "brand" },
  pspVault: {
    DEFAULT_ADMIN_ROLE: "brand",
    PAUSER_ROLE: "brand",
    MANAGER_ROLE: "brand",
    CAMPAIGN_ADMIN_ROLE: "brand",
    ISSUING_ADMIN_ROLE: "brand",
    SETTLEMENT_ADMIN_ROLE: "brand",
    TRANSFER_ADMIN_ROLE: "brand",
  },
  oracle: { DEFAULT_ADMIN_ROLE: "brand", PAUSER_ROLE: "brand" },
};

describe("deployProgram: release + program on a fresh chain", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  let release: Release;
  let program: ProgramRecord;
  let feed: string;

  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
    store = new MemoryStore();
    const agg = loadArtifact("MockAggregatorV3");
    const { ContractFactory } = await import("ethers");
    const f = await new ContractFactory(agg.abi, agg.bytecode, node.wallets[5]).deploy(8, 100_000_000n);
    feed = await f.getAddress();
    release = await ensureRelease(CHAIN, executor, store);
    program = await deployProgram(
      config(brand, {
        mintFeeBps: 25,
        oracle: { feed, heartbeat: 86_400, lowerPeg: 98n * 10n ** 16n, upperPeg: 102n * 10n ** 16n },
      }),
      executor,
      store,
      { chain: CHAIN },
    );
  });
  after(() => node.stop());

  it("ensureRelease_recordsFiveImplementationsAndProgramFactory_withCodeHashes", async () => {
    const pf = new Contract(release.programFactory, loadArtifact("ProgramFactory").abi, node.provider);
    const impls = await pf.implementations();
    for (const k of ["points", "factory", "collateralVault", "pspVault", "oracle"] as const) {
      assert.equal(impls[k], release.implementations[k]);
      assert.notEqual(await node.provider.getCode(release.implementations[k]), "0x");
      assert.match(release.contracts[k].codeHash, /^0x[0-9a-f]{64}$/);
      assert.ok(release.contracts[k].txHash && release.contracts[k].blockNumber! > 0);
    }
    assert.equal(await pf.version(), release.version);
    assert.deepEqual(await store.getRelease(CHAIN.chainId, release.version), release);
  });

  it("ensureRelease_sendsEverythingBackToBack_thenSkipsWhenTheReleaseExists", async () => {
    const nonceBefore = await node.provider.getTransactionCount(executor.address);
    const again = await ensureRelease(CHAIN, executor, store);
    assert.equal(again.programFactory, release.programFactory);
    assert.equal(await node.provider.getTransactionCount(executor.address), nonceBefore);
    const nonces = Object.values(release.contracts)
      .map((c) => c.nonce!)
      .sort((a, b) => a - b);
    assert.deepEqual(nonces, [0, 1, 2, 3, 4, 5]);
  });

  it("deployProgram_createsWholeProgramInOneTransaction", async () => {
    const receipt = await node.provider.getTransactionReceipt(program.txHash);
    assert.equal(receipt!.to, release.programFactory);
    for (const k of Object.keys(BIRTH_ROLES)) {
      assert.equal((await node.provider.getCode(program.addresses[k as "points"]!)).length > 2, true, k);
    }
    const pf = new Contract(release.programFactory, loadArtifact("ProgramFactory").abi, node.provider);
    assert.equal(await pf.programCount(), 1n);
  });

  it("deployProgram_everyRoleOfEveryContract_matchesDesignSection5_readFromChain", async () => {
    const who = { brand: brand.address, executor: executor.address, factory: program.addresses.factory! };
    const everyone = [brand.address, executor.address, program.addresses.factory!, release.programFactory];
    for (const [contract, roles] of Object.entries(BIRTH_ROLES)) {
      const artifact = loadArtifact(program.contracts[contract as "points"]!.artifact);
      const c = new Contract(program.addresses[contract as "points"]!, artifact.abi, node.provider);
      const declared = (artifact.abi as { type: string; name?: string }[])
        .filter((f) => f.type === "function" && f.name?.endsWith("_ROLE"))
        .map((f) => f.name!);
      assert.deepEqual(new Set(["DEFAULT_ADMIN_ROLE", ...declared]), new Set(Object.keys(roles)), contract);
      for (const [role, holder] of Object.entries(roles)) {
        for (const account of everyone) {
          assert.equal(await c.hasRole(ROLE(role), account), account === who[holder], `${contract} ${role} ${account}`);
        }
      }
      assert.equal(await c.defaultAdmin(), brand.address);
      const slot = await node.provider.getStorage(await c.getAddress(), IMPLEMENTATION_SLOT);
      assert.equal("0x" + slot.slice(-40).toLowerCase(), release.implementations[contract as "points"].toLowerCase());
    }
    assert.deepEqual(program.roles.factory!.EXECUTOR_ROLE, [executor.address]);
  });

  it("deployProgram_listsFactoryPspVaultAndFeeReceiver_onTransferAllowlist", async () => {
    const points = new Contract(program.addresses.points!, loadArtifact("Points").abi, node.provider);
    for (const a of [program.addresses.factory!, program.addresses.pspVault!, brand.address]) {
      assert.equal(await points.isTransferWhitelisted(a), true);
    }
    assert.equal(await points.isTransferWhitelisted(executor.address), false);
    assert.deepEqual(
      new Set(program.transferAllowlist),
      new Set([program.addresses.factory, program.addresses.pspVault, brand.address]),
    );
  });

  it("deployProgram_reportsEveryStage_inOrder", async () => {
    const stages = await store.getStages({ chainId: CHAIN.chainId, brand: "acme" });
    assert.deepEqual(Object.keys(stages!), ["validate", "release", "deploy", "verify", "register"]);
    assert.equal(stages!.deploy!.status, "done");
    assert.equal(stages!.deploy!.transactions.at(-1)!.hash, program.txHash);
    assert.equal(stages!.deploy!.addresses.points, program.addresses.points);
    assert.deepEqual(await store.getProgram(CHAIN.chainId, "acme"), program);
  });

  it("verifyProgram_passesOnTheDeployedProgram", async () => {
    const report = await verifyProgram(program, node.provider);
    assert.ok(report.checked > 50);
  });

  it("ensureRelease_recordsEveryImplementationsStorageLayout_byItsRuntimeBytecodeHash_andTheProgramKeepsThem", async () => {
    for (const key of PROGRAM_CONTRACTS) {
      const c = release.contracts[key];
      assert.equal(c.codeHash, keccak256(await node.provider.getCode(c.address)), key);
      const recorded = release.layouts![c.codeHash];
      assert.equal(recorded.artifact, IMPLEMENTATION_ARTIFACTS[key]);
      assert.equal(recorded.address, c.address);
      assert.deepEqual(recorded.layout, storageLayoutOf(loadArtifact(IMPLEMENTATION_ARTIFACTS[key])));
      assert.deepEqual(program.layouts![program.contracts[key]!.implementationCodeHash], recorded, key);
    }
    assert.equal(Object.keys(program.layouts!).length, PROGRAM_CONTRACTS.length);
  });
});
