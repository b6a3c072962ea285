import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { DevNode } from "@points/testkit";
import {
  acceptAdmin,
  deployProgram,
  DeployerError,
  handoverAdmin,
  MemoryStore,
  verifyProgram,
  type ProgramRecord,
} from "../src/index.js";
import { CHAIN, at, config, deployAcme } from "./helpers/fixture.js";

const KEYS = ["points", "factory", "collateralVault", "pspVault"] as const;

describe("handoverAdmin / acceptAdmin: two-step DEFAULT_ADMIN_ROLE transfer to a multisig", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let multisig: Wallet;
  let store: MemoryStore;
  let program: ProgramRecord;
  let slow: ProgramRecord;

  before(async () => {
    ({ node, executor, brand, store, program } = await deployAcme());
    multisig = node.wallets[2];
    slow = await deployProgram(config(brand, { brand: "slow", adminDelay: 3600 }), executor, store, { chain: CHAIN });
  });
  after(() => node.stop());

  it("handoverAdmin_byANonAdmin_isWrongKey_andSendsNothing", async () => {
    const nonce = await node.provider.getTransactionCount(executor.address);
    await assert.rejects(
      handoverAdmin(program, multisig.address, executor),
      (e: unknown) => e instanceof DeployerError && e.code === "WRONG_KEY",
    );
    assert.equal(await node.provider.getTransactionCount(executor.address), nonce);
  });

  it("handoverAdmin_beginsTheTransfer_onEveryContract_andRecordsIt", async () => {
    const result = await handoverAdmin(program, multisig.address, brand, { store });
    assert.equal(result.txHashes.length, KEYS.length);
    for (const k of KEYS) {
      const [pending] = await at(program, k, node.provider).pendingDefaultAdmin();
      assert.equal(pending, multisig.address, k);
      assert.equal(await at(program, k, node.provider).defaultAdmin(), brand.address, k);
    }
    program = (await store.getProgram(CHAIN.chainId, "acme"))!;
    assert.equal(program.pendingAdmin!.newAdmin, multisig.address);
    await verifyProgram(program, node.provider);
  });

  it("acceptAdmin_byAnotherKey_isWrongKey", () =>
    assert.rejects(
      acceptAdmin(program, executor),
      (e: unknown) => e instanceof DeployerError && e.code === "WRONG_KEY",
    ));

  it("acceptAdmin_movesDefaultAdmin_onEveryContract_keepingTheOtherRoles", async () => {
    const result = await acceptAdmin(program, multisig, { store });
    assert.equal(result.txHashes.length, KEYS.length);
    for (const k of KEYS) {
      const c = at(program, k, node.provider);
      assert.equal(await c.defaultAdmin(), multisig.address, k);
      assert.equal(await c.hasRole("0x" + "00".repeat(32), brand.address), false, k);
      assert.equal(await c.hasRole(await c.PAUSER_ROLE(), brand.address), true, k);
    }
    const saved = (await store.getProgram(CHAIN.chainId, "acme"))!;
    assert.equal(saved.admin, multisig.address);
    assert.equal(saved.pendingAdmin, undefined);
    await verifyProgram(saved, node.provider);
  });

  it("acceptAdmin_beforeTheDelay_isTooEarly_withTheScheduleTime_thenWorksAfterIt", async () => {
    const begun = await handoverAdmin(slow, multisig.address, brand, { store });
    const schedule = begun.schedules.points!;
    await assert.rejects(acceptAdmin(begun.program, multisig), (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "TOO_EARLY");
      assert.ok(e.message.includes(new Date(schedule * 1000).toISOString()), e.message);
      return true;
    });
    await node.increaseTime(3601);
    await node.mine();
    const done = await acceptAdmin(begun.program, multisig);
    assert.equal(await at(slow, "factory", node.provider).defaultAdmin(), multisig.address);
    await verifyProgram(done.program, node.provider);
  });
});
