import assert from "node:assert/strict";
import { id, type Wallet } from "ethers";
import {
  acceptAdmin,
  adminStatus,
  adminTransactions,
  cancelAdminTransfer,
  deployProgram,
  DeployerError,
  handoverAdmin,
  MemoryStore,
  verifyProgram,
} from "../src/index.js";
import { CHAIN, config } from "./helpers/fixture.js";
import { startNode, type DevNode } from "@points/testkit";

const KEYS = ["points", "factory", "collateralVault", "pspVault"];
const selector = (signature: string) => id(signature).slice(0, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The whole handover: status, unsigned steps for another signer, cancel, and accept on a dev node. */
describe("handover: status, cancel, unsigned steps, accept by a second key", () => {
  let node: DevNode;
  let executor: Wallet;
  let brand: Wallet;
  let multisig: Wallet;
  let store: MemoryStore;
  const saved = async () => (await store.getProgram(CHAIN.chainId, "acme"))!;

  before(async () => {
    node = await startNode();
    [executor, brand, multisig] = node.wallets;
    store = new MemoryStore();
    await deployProgram(config(brand, { adminDelay: 3 }), executor, store, { chain: CHAIN });
  });
  after(() => node.stop());

  it("status_beforeAnyHandover_showsTheAdmin_andNothingPending", async () => {
    const s = await adminStatus(await saved(), node.provider);
    assert.deepEqual(
      s.contracts.map((c) => [c.contract, c.admin, c.pendingAdmin, c.schedule]),
      KEYS.map((k) => [k, brand.address, "0x0000000000000000000000000000000000000000", 0]),
    );
    assert.equal(s.pendingAdmin, undefined);
    assert.equal(s.acceptableNow, false);
  });

  it("unsignedBegin_isOneTransactionPerContract_fromTheAdmin_andSendsNothing", async () => {
    const nonce = await node.provider.getTransactionCount(brand.address);
    const txs = await adminTransactions(await saved(), "begin", node.provider, { newAdmin: multisig.address });
    assert.deepEqual(
      txs.map((t) => [t.contract, t.from, t.data.slice(0, 10)]),
      KEYS.map((k) => [k, brand.address, selector("beginDefaultAdminTransfer(address)")]),
    );
    assert.equal(await node.provider.getTransactionCount(brand.address), nonce);
  });

  it("begin_thenStatus_showsThePendingAdminAndSchedule_thenCancel_clearsChainAndRecord", async () => {
    const begun = await handoverAdmin(await saved(), multisig.address, brand, { store });
    const s = await adminStatus(await saved(), node.provider);
    assert.equal(s.pendingAdmin, multisig.address);
    assert.deepEqual(
      s.contracts.map((c) => [c.pendingAdmin, c.schedule]),
      KEYS.map((k) => [multisig.address, begun.schedules[k as "points"]]),
    );
    assert.equal(s.acceptableNow, false, "the delay has not passed");
    const cancels = await adminTransactions(await saved(), "cancel", node.provider);
    assert.deepEqual(
      cancels.map((t) => [t.from, t.data]),
      KEYS.map(() => [brand.address, selector("cancelDefaultAdminTransfer()")]),
    );
    const cancelled = await cancelAdminTransfer(await saved(), brand, { store });
    assert.equal(cancelled.txHashes.length, KEYS.length);
    assert.equal((await saved()).pendingAdmin, undefined);
    assert.equal((await adminStatus(await saved(), node.provider)).pendingAdmin, undefined);
    await verifyProgram(await saved(), node.provider);
  });

  it("accept_beforeTheDelay_isTooEarly_andOnAnIdleDevNode_minesOnlyWhenAllowed_thenTheSecondKeyIsAdmin", async () => {
    const begun = await handoverAdmin(await saved(), multisig.address, brand, { store });
    const schedule = Math.max(...Object.values(begun.schedules).map(Number));
    await assert.rejects(acceptAdmin(await saved(), multisig, { store }), (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "TOO_EARLY");
      assert.match(e.message, /^(points|factory|collateralVault|pspVault): the admin transfer can be accepted after /);
      return true;
    });
    while (Date.now() / 1000 <= schedule + 1) await sleep(250);
    // Due by the wall clock, but the node mined nothing since: its latest block is old.
    await assert.rejects(acceptAdmin(await saved(), multisig, { store }), (e: unknown) => {
      assert.ok(e instanceof DeployerError);
      assert.equal(e.code, "TOO_EARLY");
      assert.match(e.message, /a node that mines only on transactions needs a new block first$/);
      return true;
    });
    const accepts = await adminTransactions(await saved(), "accept", node.provider);
    assert.deepEqual(
      accepts.map((t) => [t.from, t.data]),
      KEYS.map(() => [multisig.address, selector("acceptDefaultAdminTransfer()")]),
    );
    const accepted = await acceptAdmin(await saved(), multisig, { store, mineWhenDue: true });
    assert.equal(accepted.txHashes.length, KEYS.length);
    assert.equal((await saved()).admin, multisig.address);
    const s = await adminStatus(await saved(), node.provider);
    assert.deepEqual(
      s.contracts.map((c) => c.admin),
      KEYS.map(() => multisig.address),
    );
    await verifyProgram(await saved(), node.provider);
  });
});
