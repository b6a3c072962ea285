import assert from "node:assert/strict";
import { ContractFactory, getAddress, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import {
  deployProgram,
  ensureRelease,
  IMPLEMENTATION_SLOT,
  loadArtifact,
  MemoryStore,
  upgrade,
  type ProgramRecord,
  type Release,
} from "../src/index.js";
import { CHAIN, at, config } from "./helpers/fixture.js";

/** OpenZeppelin's Initializable storage (ERC-7201 "openzeppelin.storage.Initializable"). */
const INITIALIZABLE_SLOT = "0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00";

describe("upgrade: a Factory upgraded to a release records that release's CollateralVault", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let store: MemoryStore;
  let program: ProgramRecord;
  let next: Release;

  const implOf = async (proxy: string) =>
    getAddress("0x" + (await node.provider.getStorage(proxy, IMPLEMENTATION_SLOT)).slice(-40));

  before(async () => {
    node = await startNode();
    [executor, brand] = node.wallets;
    store = new MemoryStore();
    program = await deployProgram(config(brand), executor, store, { chain: CHAIN });
    next = await ensureRelease(CHAIN, executor, store, { version: "0.3.0" });
  });
  after(() => node.stop());

  it("upgrade_factory_pointsAtTheNewestReleasesFactory_andCallsInitializeVaultImplementation_soCreateVaultUsesItsCollateralVault", async () => {
    const result = await upgrade(program, "factory", "Factory", { signer: brand, store });
    assert.equal(getAddress(result.newImplementation), getAddress(next.implementations.factory));
    assert.equal(result.deployed, false, "the release's own implementation, not a new one");
    assert.equal(await implOf(program.addresses.factory!), getAddress(next.implementations.factory));

    const factory = at(result.program, "factory", brand);
    const other = await ContractFactory.fromSolidity(loadArtifact("MockStablecoin"), brand).deploy("Other", "OTH", 6);
    await other.waitForDeployment();
    await (await factory.getFunction("createVault")(await other.getAddress(), "Acme OTH", "aOTH")).wait();
    const vault = await factory.getFunction("predictVault")(await other.getAddress());
    assert.equal(await implOf(vault), getAddress(next.implementations.collateralVault));
    // The reinitializer ran (Initializable version 2) and named the newest release's ProgramFactory.
    const receipt = await node.provider.getTransactionReceipt(result.tx!.hash);
    const recorded = receipt!.logs
      .map((l) => factory.interface.parseLog(l))
      .find((e) => e?.name === "VaultImplementationRecorded");
    assert.deepEqual(recorded!.args.map(String), [next.programFactory, next.implementations.collateralVault]);
    const initialized = BigInt(await node.provider.getStorage(program.addresses.factory!, INITIALIZABLE_SLOT));
    assert.equal(initialized & ((1n << 64n) - 1n), 2n);
  });
});
