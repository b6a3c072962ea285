import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import {
  DeployerError,
  IMPLEMENTATION_SLOT,
  MemoryStore,
  upgrade,
  verifyProgram,
  type ProgramRecord,
} from "../src/index.js";
import { CHAIN, at, mintSp, deployAcme } from "./helpers/fixture.js";

describe("upgrade: OpenZeppelin storage checks before anything is sent", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let user: Wallet;
  let store: MemoryStore;
  let program: ProgramRecord;

  const implOf = async (proxy: string) =>
    "0x" + (await node.provider.getStorage(proxy, IMPLEMENTATION_SLOT)).slice(-40);
  const nonces = () => Promise.all([executor, brand].map((w) => node.provider.getTransactionCount(w.address)));

  before(async () => {
    ({ node, executor, brand, store, program } = await deployAcme());
    user = node.wallets[3];
    await mintSp(program, brand, user, 1_000_000n);
  });
  after(() => node.stop());

  it("upgrade_refusesReorderedStorage_beforeAnyTransaction_namingTheVariable", async () => {
    const before = await nonces();
    await assert.rejects(upgrade(program, "points", "PointsV2UnsafeMock", { signer: brand, store }), (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "UNSAFE_UPGRADE");
      assert.match(e.message, /PointsV2UnsafeMock/);
      assert.match(e.message, /Replaced `holders` with `transferRestricted`/);
      return true;
    });
    assert.deepEqual(await nonces(), before, "no transaction from anyone");
    assert.equal(
      (await implOf(program.addresses.points!)).toLowerCase(),
      program.contracts.points!.implementation.toLowerCase(),
    );
    assert.equal((await store.getStages({ chainId: CHAIN.chainId, brand: "acme" }))!.upgrade, undefined);
  });

  it("upgrade_safeVersion_sentByTheAdmin_keepsBalancesAndRoles_andIsRecorded", async () => {
    const points = at(program, "points", node.provider);
    const balance = await points.balanceOf(user.address);
    assert.equal(balance, 1_000_000n * 10n ** 12n);
    const result = await upgrade(program, "points", "PointsV2Mock", { signer: brand, store });
    assert.ok(result.tx);
    assert.equal(result.oldImplementation, program.contracts.points!.implementation);
    assert.equal((await implOf(program.addresses.points!)).toLowerCase(), result.newImplementation.toLowerCase());
    const v2 = at(result.program, "points", node.provider);
    assert.equal(await v2.version(), "2");
    assert.equal(await v2.balanceOf(user.address), balance);
    await verifyProgram(result.program, node.provider);
    const saved = await store.getProgram(CHAIN.chainId, "acme");
    assert.equal(saved!.contracts.points!.artifact, "PointsV2Mock");
    assert.deepEqual(
      saved!.upgrades.map((u) => [u.contract, u.status, u.oldImplementation, u.newImplementation]),
      [["points", "sent", result.oldImplementation, result.newImplementation]],
    );
    program = saved!;
  });

  it("upgrade_byANonAdmin_deploysTheImplementation_andReturnsTheUnsignedTransaction", async () => {
    const before = await node.provider.getTransactionCount(brand.address);
    const result = await upgrade(program, "factory", "FactoryV2Mock", { signer: executor, store });
    assert.equal(result.tx, undefined);
    assert.equal(result.unsignedTx!.to, program.addresses.factory);
    assert.equal(result.unsignedTx!.from, brand.address);
    assert.equal(await node.provider.getTransactionCount(brand.address), before, "the admin signed nothing yet");
    assert.notEqual(await node.provider.getCode(result.newImplementation), "0x");
    await (await brand.sendTransaction({ to: result.unsignedTx!.to, data: result.unsignedTx!.data })).wait();
    assert.equal((await implOf(program.addresses.factory!)).toLowerCase(), result.newImplementation.toLowerCase());
    await verifyProgram(result.program, node.provider);
  });

  it("upgrade_withSendTrue_byANonAdmin_isWrongKey", () =>
    assert.rejects(
      upgrade(program, "pspVault", "PSPVaultV2Mock", { signer: executor, send: true }),
      (e: unknown) => e instanceof DeployerError && e.code === "WRONG_KEY",
    ));
});
