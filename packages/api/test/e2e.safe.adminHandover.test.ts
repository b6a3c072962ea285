import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroAddress, ZeroHash, id, type Wallet } from "ethers";
import { devSafe, devWallet, safeContract } from "@points/testkit";
import { expectError, expectMissingRole, expectOk, setupE2E, type E2E } from "./helpers/e2e.js";
import { safeProposer } from "./helpers/safe.js";

// DEFAULT_ADMIN_ROLE handed over through the API's handover build routes (docs/deployment.md#admin-handover)
// between wallets and real 2-of-3 Safes v1.4.1: a Safe runs the four contracts' steps as one
// MultiSendCallOnly batch proposal, a wallet signs the four build answers; each step checked on chain.
describe("e2e: admin handover routes: wallet -> Safe -> Safe -> wallet, with revocation and cancel", () => {
  let e: E2E;
  let safeA: Awaited<ReturnType<typeof devSafe>>;
  let safeB: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  const CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;
  before(async () => {
    e = await setupE2E();
    safeA = await devSafe(e.node.provider);
    safeB = await devSafe(e.node.provider, { infra: safeA.infra, saltNonce: 7n });
    relayer = devWallet(9, e.node.provider);
  });
  after(() => e?.stop());

  const nextBlock = async () => {
    // The admin delay is 0: a transfer is accepted in a later block.
    await e.node.increaseTime(1);
    await e.node.mine();
  };
  const nonceOf = async (safe: string) => (await safeContract(safe, e.node.provider).getFunction("nonce")()) as bigint;
  /** `actions` as one batch of `safe`, proposed, signed by two owners, relayed; the batch answer. */
  const runBatch = async (safe: Awaited<ReturnType<typeof devSafe>>, actions: object[]) => {
    const body = { safe: safe.address, actions, multiSendCallOnly: safe.infra.multiSendCallOnly };
    const built = expectOk("safeBatch", await e.call("safeBatch", { body }));
    await safeProposer(e, safe, relayer).run(built.safe.tx);
    return built;
  };
  const step = (route: string, input: object = {}) =>
    CONTRACTS.map((contract) => ({ route, body: { input: { contract, ...input } } }));
  const admins = () => Promise.all(CONTRACTS.map((c) => e.c[c].defaultAdmin()));
  const pending = () => Promise.all(CONTRACTS.map(async (c) => (await e.c[c].pendingDefaultAdmin())[0]));
  const all = (a: string) => CONTRACTS.map(() => a);

  it("walletToSafe_theBrandBeginsWithFourBuilds_theSafeAccepts_andRevokesTheBrandsPauserRoles_inOneProposal", async () => {
    const { brand } = e.who;
    for (const contract of CONTRACTS) {
      const body = { input: { contract, newAdmin: safeA.address }, key: brand.address };
      const built = expectOk("adminHandoverBegin", await e.call("adminHandoverBegin", { body }));
      assert.equal(built.safe, undefined, "a wallet signs the plain transaction");
      await e.send(brand, built);
    }
    assert.deepEqual(await pending(), all(safeA.address));
    await nextBlock();
    const PAUSER = id("PAUSER_ROLE");
    assert.equal(await e.c.factory.hasRole(PAUSER, brand.address), true);
    const nonce = await nonceOf(safeA.address);
    // Revoking needs DEFAULT_ADMIN_ROLE, which the accepts before it give the Safe: the batch is
    // simulated in order, so it passes although each revocation alone would be refused.
    const revoke = (["factory", "points"] as const).map((contract) => ({
      route: "revokeRole",
      body: { input: { contract, role: "PAUSER_ROLE", account: brand.address } },
    }));
    const built = await runBatch(safeA, [...step("adminHandoverAccept"), ...revoke]);
    assert.equal(built.actions.length, 6);
    assert.deepEqual(await admins(), all(safeA.address));
    assert.deepEqual(await pending(), all(ZeroAddress));
    for (const c of CONTRACTS) assert.equal(await e.c[c].hasRole(ZeroHash, brand.address), false, c);
    assert.equal(await e.c.factory.hasRole(PAUSER, brand.address), false);
    assert.equal(await e.c.points.hasRole(PAUSER, brand.address), false);
    assert.equal(await nonceOf(safeA.address), nonce + 1n);
  });

  it("theOldWallet_beginningAgain_is403MissingRole_andAStranger_accepting_is422", async () => {
    const { brand, alice } = e.who;
    const begin = { input: { contract: "factory", newAdmin: brand.address }, key: brand.address };
    expectMissingRole(await e.call("adminHandoverBegin", { body: begin }), {
      contract: "factory",
      role: "DEFAULT_ADMIN_ROLE",
      account: brand.address,
    });
    const accept = { input: { contract: "points" }, key: alice.address };
    const d = expectError(await e.call("adminHandoverAccept", { body: accept }), 422, "WOULD_REVERT");
    assert.deepEqual([d.name, d.args], ["AccessControlInvalidDefaultAdmin", { defaultAdmin: alice.address }]);
  });

  it("safeToSafe_safeABegins_safeBAccepts_eachInOneBatchProposal", async () => {
    await runBatch(safeA, step("adminHandoverBegin", { newAdmin: safeB.address }));
    assert.deepEqual(await pending(), all(safeB.address));
    await nextBlock();
    await runBatch(safeB, step("adminHandoverAccept"));
    assert.deepEqual(await admins(), all(safeB.address));
  });

  it("safeToWallet_aBegunHandoverCancelled_thenBegunAgain_andTheWalletAcceptsWithFourBuilds", async () => {
    const { carol } = e.who;
    await runBatch(safeB, step("adminHandoverBegin", { newAdmin: carol.address }));
    assert.deepEqual(await pending(), all(carol.address));
    await runBatch(safeB, step("adminHandoverCancel"));
    assert.deepEqual(await pending(), all(ZeroAddress));
    await runBatch(safeB, step("adminHandoverBegin", { newAdmin: carol.address }));
    await nextBlock();
    for (const contract of CONTRACTS) {
      const body = { input: { contract }, key: carol.address };
      await e.send(carol, expectOk("adminHandoverAccept", await e.call("adminHandoverAccept", { body })));
    }
    assert.deepEqual(await admins(), all(carol.address));
    assert.equal(await e.c.pspVault.hasRole(ZeroHash, safeB.address), false);
  });
});
