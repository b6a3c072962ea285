import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { concat, id, type Wallet } from "ethers";
import { devSafe, devWallet, execTransaction, plainSafeTx, safeContract, safeTxArgs } from "@points/testkit";
import { expectError, expectMissingRole, expectRevert, setupE2E, type E2E } from "./helpers/e2e.js";

// Build routes whose signer is a Safe answer the Safe transaction (docs/architecture.md#safe-multisig):
// simulated from the Safe's address, signed by distinct owners with EIP-712, executed on a real
// Safe v1.4.1, and checked on chain.
describe("e2e: build routes answer a Safe transaction when the signer is a Safe", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
  });
  after(() => e?.stop());

  const pause = (contract: string, key: string, nonce?: number) =>
    e.call("pause", { body: { input: { contract }, key, ...(nonce === undefined ? {} : { nonce }) } });

  /** Each owner signs the API's typed data; signatures sorted by owner address. */
  const sign = async (owners: Wallet[], typed: { domain: any; types: any; message: any }) => {
    const sorted = [...owners].sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1));
    return concat(await Promise.all(sorted.map((o) => o.signTypedData(typed.domain, typed.types, typed.message))));
  };

  it("aSafeWithoutTheRole_isRefused403MissingRole_namingTheSafe", async () => {
    expectMissingRole(await pause("points", safe.address), {
      contract: "points",
      role: "PAUSER_ROLE",
      account: safe.address,
    });
  });

  it("aSafePauser_getsTheSafeTx_typedData_andHash_whichTwoOwnersSign_andARelayerExecutes", async () => {
    await (await e.c.points.connect(e.who.brand).grantRole(id("PAUSER_ROLE"), safe.address)).wait();
    const data = await e.ok("pause", { body: { input: { contract: "points" }, key: safe.address } });
    const s = data.safe!;
    assert.ok(s, "a Safe signer gets the safe field");
    assert.equal(data.from, safe.address);
    assert.equal(s.address, safe.address);
    assert.equal(s.version, "1.4.1");
    assert.equal(s.threshold, 2);
    assert.deepEqual([...s.owners].sort(), safe.owners.map((o) => o.address).sort());
    const pauseData = e.c.points.interface.encodeFunctionData("pause");
    assert.deepEqual(s.tx, plainSafeTx(e.record.points, pauseData, 0));
    assert.deepEqual(s.typedData.message, s.tx);
    assert.deepEqual(s.typedData.domain, { chainId: "31337", verifyingContract: safe.address });
    assert.equal(s.typedData.primaryType, "SafeTx");
    // The hash is the Safe's own.
    const chainHash = await safeContract(safe.address, e.node.provider).getFunction("getTransactionHash")(
      ...safeTxArgs(s.tx),
    );
    assert.equal(s.safeTxHash, chainHash);

    const signatures = await sign([safe.owners[2]!, safe.owners[0]!], s.typedData);
    const receipt = await execTransaction(devWallet(9, e.node.provider), safe.address, s.tx, signatures);
    assert.equal(receipt.status, 1);
    assert.equal(await e.c.points.paused(), true);
    assert.equal(await safeContract(safe.address, e.node.provider).getFunction("nonce")(), 1n);
  });

  it("aSafeCall_thatWouldRevert_is422WouldRevert_asForAnEoa", async () => {
    // Points is paused by the previous test: pausing again reverts EnforcedPause.
    expectRevert(await pause("points", safe.address), "points", "EnforcedPause", {});
    await (await e.c.points.connect(e.who.brand).unpause()).wait();
  });

  it("anExplicitNonce_isTheSafeNonce_aUsedOneIs409Conflict_aLaterOneIsSigned", async () => {
    const used = expectError(await pause("points", safe.address, 0), 409, "CONFLICT");
    assert.deepEqual(used, { nonce: 0, next: 1 });
    const later = await e.ok("pause", { body: { input: { contract: "points" }, key: safe.address, nonce: 3 } });
    assert.equal(later.safe!.tx.nonce, "3");
    assert.equal(later.safe!.typedData.message.nonce, "3");
    // Signed for nonce 3 while the Safe is at 1: the Safe refuses it (the hash it checks is nonce 1's).
    const signatures = await sign([safe.owners[0]!, safe.owners[1]!], later.safe!.typedData);
    await assert.rejects(
      execTransaction(devWallet(9, e.node.provider), safe.address, later.safe!.tx, signatures),
      /GS026/,
    );
    assert.equal(await e.c.points.paused(), false);
  });

  it("anEoaSigner_andAContractThatIsNotASafe_getNoSafeField", async () => {
    const eoa = await e.ok("pause", { body: { input: { contract: "points" }, key: e.who.brand.address } });
    assert.equal(eoa.safe, undefined);
    assert.equal("safe" in eoa, false);
    // The Factory holds no PAUSER_ROLE on Points: a contract that is not a Safe is simulated as
    // itself and refused like any account.
    expectMissingRole(await pause("points", e.record.factory), {
      contract: "points",
      role: "PAUSER_ROLE",
      account: e.record.factory,
    });
  });
});
