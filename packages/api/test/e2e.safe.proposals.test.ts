import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, type Wallet } from "ethers";
import { devSafe, devWallet, plainSafeTx, safeContract } from "@points/testkit";
import { expectError, expectOk, setupE2E, type E2E } from "./helpers/e2e.js";
import { typedOf } from "./helpers/safe.js";

// Safe proposals stored by the service (docs/architecture.md#safe-multisig): a real 2-of-3 Safe
// v1.4.1, owners' EIP-712 signatures collected through the API, execTransaction built by the
// API, signed and sent by a relayer, the result checked on chain.
describe("e2e: Safe proposals: create, sign, execute, replaced, scoped to the API key", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let otherAuth: Record<string, string>;
  let relayer: Wallet;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
    const brand = e.who.brand;
    await (await e.c.points.connect(brand).grantRole(id("PAUSER_ROLE"), safe.address)).wait();
    await (await e.c.factory.connect(brand).grantRole(id("MANAGER_ROLE"), safe.address)).wait();
    otherAuth = { authorization: `Bearer ${(await e.api.service.ctx.keys.create("other tenant")).key}` };
  });
  after(() => e?.stop());

  type Typed = { domain: object; types: Record<string, { name: string; type: string }[]>; message: object };
  /** `owner`'s EIP-712 signature of typed data (a build answer's or a proposal's). */
  const sign = (owner: Wallet, t: Typed) => owner.signTypedData(t.domain, t.types, t.message);
  const create = (body: unknown) => e.call("safeProposalCreate", { body });
  const addSig = (pid: string, signature: string) =>
    e.call("safeProposalSign", { params: { proposalId: pid }, body: { signature } });
  const execute = (pid: string, from = relayer.address) =>
    e.call("safeProposalExecute", { params: { proposalId: pid }, body: { from } });
  const get = async (pid: string) =>
    expectOk("safeProposalGet", await e.call("safeProposalGet", { params: { proposalId: pid } }));
  const safeNonce = async () => (await safeContract(safe.address, e.node.provider).getFunction("nonce")()) as bigint;
  /** A proposal of Factory.addToMintWhitelist(account) at `nonce`. */
  const whitelistTx = (account: string, nonce: bigint) =>
    plainSafeTx(e.record.factory, e.c.factory.interface.encodeFunctionData("addToMintWhitelist", [account]), nonce);

  let pauseId: string;

  it("create_fromABuildRoutesSafeTx_withTheProposersSignature_isPending_missingOne", async () => {
    const built = await e.ok("pause", { body: { input: { contract: "points" }, key: safe.address } });
    const s = built.safe!;
    const signature = await sign(safe.owners[0]!, s.typedData);
    const res = await create({ chainId: 31337, safe: safe.address, tx: s.tx, signature });
    const p = expectOk("safeProposalCreate", res);
    assert.equal(res.status, 201);
    pauseId = p.id;
    assert.equal(p.safeTxHash, s.safeTxHash);
    assert.deepEqual(p.tx, s.tx);
    assert.equal(p.status, "pending");
    assert.equal(p.threshold, 2);
    assert.equal(p.missing, 1);
    assert.deepEqual(
      p.signatures.map((x) => [x.owner, x.signature]),
      [[safe.owners[0]!.address, signature]],
    );
    // The same transaction again: refused, naming the existing proposal.
    const again = expectError(await create({ chainId: 31337, safe: safe.address, tx: s.tx }), 409, "CONFLICT");
    assert.deepEqual(again, { reason: "ALREADY_PROPOSED", id: p.id });
  });

  it("sign_byANonOwner_is403NotAnOwner_aDuplicateIs409AlreadySigned_andNothingIsRecorded", async () => {
    const p = await get(pauseId);
    const stranger = expectError(await addSig(pauseId, await sign(relayer, typedOf(p))), 403, "FORBIDDEN");
    assert.equal(stranger.reason, "NOT_AN_OWNER");
    assert.equal(stranger.signer, relayer.address);
    // An owner's signature of another transaction (another nonce) recovers to a non-owner.
    const other = await sign(safe.owners[1]!, { ...typedOf(p), message: { ...p.tx, nonce: "7" } });
    assert.equal(expectError(await addSig(pauseId, other), 403, "FORBIDDEN").reason, "NOT_AN_OWNER");
    const dup = expectError(await addSig(pauseId, p.signatures[0]!.signature), 409, "CONFLICT");
    assert.deepEqual(dup, { reason: "ALREADY_SIGNED", signer: safe.owners[0]!.address });
    const after = await get(pauseId);
    assert.equal(after.signatures.length, 1);
    assert.equal(after.missing, 1);
  });

  it("execute_belowThreshold_is409BelowThreshold_andPointsStaysUnpaused", async () => {
    const d = expectError(await execute(pauseId), 409, "CONFLICT");
    assert.deepEqual(d, { reason: "BELOW_THRESHOLD", signatures: 1, threshold: 2 });
    assert.equal(await e.c.points.paused(), false);
  });

  it("anotherApiKey_cannotRead_sign_execute_orList_theProposal_404", async () => {
    const path = `/api/v1/safe/proposals/${pauseId}`;
    expectError(await e.api.call("GET", path, undefined, otherAuth), 404, "NOT_FOUND");
    const p = await get(pauseId);
    const sig = await sign(safe.owners[1]!, typedOf(p));
    expectError(await e.api.call("POST", `${path}/signatures`, { signature: sig }, otherAuth), 404, "NOT_FOUND");
    expectError(await e.api.call("POST", `${path}/execute`, { from: relayer.address }, otherAuth), 404, "NOT_FOUND");
    const list = await e.api.call("GET", "/api/v1/safe/proposals", undefined, otherAuth);
    assert.deepEqual(expectOk("safeProposalList", list), { proposals: [], nextCursor: null });
    expectError(await e.api.call("GET", path, undefined, {}), 401, "UNAUTHORIZED");
    assert.equal((await get(pauseId)).signatures.length, 1);
  });

  it("secondOwnerSigns_executable_thenTheRelayerSendsTheBuiltExecTransaction_pointsPaused_executed", async () => {
    const p = await get(pauseId);
    const signed = expectOk("safeProposalSign", await addSig(pauseId, await sign(safe.owners[2]!, typedOf(p))));
    assert.equal(signed.status, "executable");
    assert.equal(signed.missing, 0);
    const exec = expectOk("safeProposalExecute", await execute(pauseId));
    assert.equal(exec.to, safe.address);
    assert.equal(exec.from, relayer.address);
    assert.equal(exec.safeTxHash, p.safeTxHash);
    await e.send(relayer, exec);
    assert.equal(await e.c.points.paused(), true);
    assert.equal(await safeNonce(), 1n);
    const done = await get(pauseId);
    assert.equal(done.status, "executed");
    const again = expectError(await execute(pauseId), 409, "CONFLICT");
    assert.equal(again.reason, "NONCE_USED");
    await (await e.c.points.connect(e.who.brand).unpause()).wait();
  });

  it("twoProposalsOfOneNonce_executingOne_marksTheOtherReplaced_whichRefusesSignaturesAndExecution", async () => {
    const { alice, bob } = e.who;
    const nonce = await safeNonce();
    const a = expectOk(
      "safeProposalCreate",
      await create({ chainId: 31337, safe: safe.address, tx: whitelistTx(alice.address, nonce) }),
    );
    const b = expectOk(
      "safeProposalCreate",
      await create({ chainId: 31337, safe: safe.address, tx: whitelistTx(bob.address, nonce) }),
    );
    for (const p of [a, b])
      for (const o of [safe.owners[0]!, safe.owners[1]!]) await addSig(p.id, await sign(o, typedOf(p)));
    assert.equal((await get(a.id)).status, "executable");
    await e.send(relayer, expectOk("safeProposalExecute", await execute(b.id)));
    assert.equal(await e.c.factory.isMintWhitelisted(bob.address), true);
    assert.equal(await e.c.factory.isMintWhitelisted(alice.address), false);
    assert.equal((await get(b.id)).status, "executed");
    assert.equal((await get(a.id)).status, "replaced");
    const signLate = expectError(await addSig(a.id, await sign(safe.owners[2]!, typedOf(a))), 409, "CONFLICT");
    assert.deepEqual(signLate, { reason: "NONCE_USED", status: "replaced" });
    assert.equal(expectError(await execute(a.id), 409, "CONFLICT").reason, "NONCE_USED");
    const replaced = expectOk("safeProposalList", await e.call("safeProposalList", { query: { status: "replaced" } }));
    assert.deepEqual(
      replaced.proposals.map((p) => p.id),
      [a.id],
    );
    const all = expectOk("safeProposalList", await e.call("safeProposalList", { query: { safe: safe.address } }));
    assert.deepEqual(new Set(all.proposals.map((p) => p.id)), new Set([pauseId, a.id, b.id]));
  });

  it("create_refuses_aUsedNonce409_aDelegatecallOutsideMultiSend404_aGasRefund400_aNonSafe404_andSignVOtherThan27or28_400", async () => {
    const { alice } = e.who;
    const used = expectError(
      await create({ chainId: 31337, safe: safe.address, tx: whitelistTx(alice.address, 0n) }),
      409,
      "CONFLICT",
    );
    assert.deepEqual(used, { reason: "NONCE_USED", next: (await safeNonce()).toString() });
    const next = await safeNonce();
    // A delegatecall is taken only into MultiSendCallOnly (a batch): into the Factory it is refused.
    const dc = { ...whitelistTx(alice.address, next), operation: 1 };
    const dcErr = await create({ chainId: 31337, safe: safe.address, tx: dc });
    const dcDetails = expectError(dcErr, 404, "NOT_FOUND");
    assert.deepEqual(dcDetails, { reason: "NOT_MULTISEND_CALL_ONLY", address: e.record.factory });
    // Gas refunds are refused by the schema (the OpenAPI document says so).
    const refund = { ...whitelistTx(alice.address, next), gasPrice: "1", refundReceiver: relayer.address };
    const refundErr = await create({ chainId: 31337, safe: safe.address, tx: refund });
    expectError(refundErr, 400, "INVALID_INPUT");
    assert.deepEqual(refundErr.body.error.details.issues.map((i: { field: string }) => i.field).sort(), [
      "body.tx.gasPrice",
      "body.tx.refundReceiver",
    ]);
    const eoa = expectError(
      await create({ chainId: 31337, safe: e.who.brand.address, tx: whitelistTx(alice.address, next) }),
      404,
      "NOT_FOUND",
    );
    assert.deepEqual(eoa, { reason: "NOT_A_SAFE", safe: e.who.brand.address });
    // An eth_sign-style signature (v 31) is not taken.
    const ethSign = (await sign(safe.owners[0]!, typedOf(await get(pauseId)))).slice(0, -2) + "1f";
    expectError(await addSig(pauseId, ethSign), 400, "INVALID_INPUT");
    expectError(
      await create({ chainId: 5, safe: safe.address, tx: whitelistTx(alice.address, next) }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await create({ chainId: 31337, safe: safe.address, tx: { ...whitelistTx(alice.address, next), nonce: "-1" } }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await create({
        chainId: 31337,
        safe: safe.address,
        tx: { ...whitelistTx(alice.address, next), value: (2n ** 256n).toString() },
      }),
      400,
      "INVALID_INPUT",
    );
    expectError(await addSig(crypto.randomUUID(), "0x" + "11".repeat(64) + "1b"), 404, "NOT_FOUND");
  });
  // A non-decimal string reached BigInt() after the regex failed: 500.
  it("create_withNonDecimalValueSafeTxGasOrNonce_is400NamingEachField_never500", async () => {
    const base = whitelistTx(e.who.alice.address, await safeNonce());
    for (const bad of ["abc", "1.5", "0x10", " 1", "1e3", ""]) {
      const res = await create({
        chainId: 31337,
        safe: safe.address,
        tx: { ...base, value: bad, safeTxGas: bad, nonce: bad },
      });
      expectError(res, 400, "INVALID_INPUT");
      assert.deepEqual(
        res.body.error.details.issues.map((i: { field: string; message: string }) => [i.field, i.message]),
        ["body.tx.value", "body.tx.safeTxGas", "body.tx.nonce"].map((f) => [f, "must be a decimal integer"]),
        bad,
      );
    }
  });
});
