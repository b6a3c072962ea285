import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroHash, id, type Wallet } from "ethers";
import { devSafe, devWallet, plainSafeTx, safeContract } from "@points/testkit";
import { expectError, expectMissingRole, expectOk, setupE2E, type E2E } from "./helpers/e2e.js";
import { safeProposer } from "./helpers/safe.js";

// DEFAULT_ADMIN_ROLE handed from the brand wallet to a real 2-of-3 Safe v1.4.1, accepted through
// proposals whose signatures are collected by the API; then the Safe administers the program
// through build routes and proposals (docs/architecture.md#safe-multisig).
describe("e2e: admin handover to a Safe, accepted and used through proposals", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  let proposeSigned: ReturnType<typeof safeProposer>["proposeSigned"];
  let execute: ReturnType<typeof safeProposer>["execute"];
  const CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
    ({ proposeSigned, execute } = safeProposer(e, safe, relayer));
  });
  after(() => e?.stop());

  const safeNonce = async () => (await safeContract(safe.address, e.node.provider).getFunction("nonce")()) as bigint;

  it("handover_begunByTheBrand_acceptedByTheSafe_throughFourProposals_executedInNonceOrder", async () => {
    for (const c of CONTRACTS) await (await e.c[c].connect(e.who.brand).beginDefaultAdminTransfer(safe.address)).wait();
    // adminDelay 0: the transfer can be accepted once a later block exists.
    await e.node.increaseTime(1);
    await e.node.mine();
    const nonce = await safeNonce();
    const accept = e.c.points.interface.encodeFunctionData("acceptDefaultAdminTransfer");
    const ids: string[] = [];
    for (const [i, c] of CONTRACTS.entries())
      ids.push(await proposeSigned(plainSafeTx(await e.c[c].getAddress(), accept, nonce + BigInt(i))));
    // Every proposal has both signatures, but only the Safe's next nonce is executable.
    const second = expectOk("safeProposalGet", await e.call("safeProposalGet", { params: { proposalId: ids[1]! } }));
    assert.deepEqual([second.status, second.missing], ["pending", 0]);
    const early = expectError(await execute(ids[1]!), 409, "CONFLICT");
    assert.deepEqual(early, { reason: "NONCE_NOT_NEXT", next: nonce.toString() });
    for (const [i, c] of CONTRACTS.entries()) {
      await e.send(relayer, expectOk("safeProposalExecute", await execute(ids[i]!)));
      assert.equal(await e.c[c].defaultAdmin(), safe.address, c);
      // DEFAULT_ADMIN_ROLE is bytes32(0): the brand wallet no longer holds it.
      assert.equal(await e.c[c].hasRole(ZeroHash, e.who.brand.address), false, c);
    }
    assert.equal(await safeNonce(), nonce + 4n);
  });

  it("theOldAdmin_isRefusedMissingRole_andTheSafe_grantsARole_throughABuildRouteAndAProposal", async () => {
    const { brand, alice } = e.who;
    const input = { contract: "factory", role: "MANAGER_ROLE", account: alice.address };
    expectMissingRole(await e.call("grantRole", { body: { input, key: brand.address } }), {
      contract: "factory",
      role: "DEFAULT_ADMIN_ROLE",
      account: brand.address,
    });
    const built = expectOk("grantRole", await e.call("grantRole", { body: { input, key: safe.address } }));
    const pid = await proposeSigned(built.safe!.tx);
    await e.send(relayer, expectOk("safeProposalExecute", await execute(pid)));
    assert.equal(await e.c.factory.hasRole(id("MANAGER_ROLE"), alice.address), true);
  });

  it("theSafe_revokesTheOldWalletsPauserRole_andUnpausesWhatItPaused_eachThroughAProposal", async () => {
    const { brand } = e.who;
    const revokeInput = { contract: "points", role: "PAUSER_ROLE", account: brand.address };
    const revoke = expectOk(
      "revokeRole",
      await e.call("revokeRole", { body: { input: revokeInput, key: safe.address } }),
    );
    await e.send(relayer, expectOk("safeProposalExecute", await execute(await proposeSigned(revoke.safe!.tx))));
    assert.equal(await e.c.points.hasRole(id("PAUSER_ROLE"), brand.address), false);
    // The Safe makes itself a pauser, pauses and unpauses Points.
    const grant = { contract: "points", role: "PAUSER_ROLE", account: safe.address };
    const g = expectOk("grantRole", await e.call("grantRole", { body: { input: grant, key: safe.address } }));
    await e.send(relayer, expectOk("safeProposalExecute", await execute(await proposeSigned(g.safe!.tx))));
    for (const op of ["pause", "unpause"] as const) {
      const b = expectOk(op, await e.call(op, { body: { input: { contract: "points" }, key: safe.address } }));
      await e.send(relayer, expectOk("safeProposalExecute", await execute(await proposeSigned(b.safe!.tx))));
      assert.equal(await e.c.points.paused(), op === "pause");
    }
  });
});
