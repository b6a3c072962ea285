import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Transaction, getBytes, hexlify, id, keccak256 } from "ethers";
import { routes } from "@points/schema";
import { expectError, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// Build routes under Idempotency-Key and an explicit nonce: a retried build gives back the
// same transaction bytes, so at most one of the retries can ever be mined.
describe("build routes: Idempotency-Key and explicit nonce", () => {
  let e: E2E;
  let otherKey: Record<string, string>;
  const mintPath = routes.pspMint.path;
  const MAIN = id("main");

  before(async () => {
    e = await setupE2E();
    const { brand } = e.who;
    await e.giveSp(brand.address, SP(100));
    await (await e.c.points.connect(brand).approve(e.record.pspVault, SP(100))).wait();
    const vault = e.c.pspVault.connect(brand);
    await (await vault.createCampaign(MAIN, SP(100), [], [], "")).wait();
    const { key } = await e.api.service.ctx.keys.create("other");
    otherKey = { authorization: `Bearer ${key}` };
  });
  after(() => e?.stop());

  const body = (amount: bigint, extra: Record<string, unknown> = {}) => ({
    campaignId: "main",
    to: e.who.alice.address,
    amount: amount.toString(),
    metadata: "order",
    from: e.who.brand.address,
    ...extra,
  });
  const post = (b: unknown, headers: Record<string, string>) => e.api.call("POST", mintPath, b, headers);
  const withKey = (key: string, auth: Record<string, string> = e.auth) => ({ ...auth, "idempotency-key": key });

  it("sameKeyAndBody_returnsTheSameBytes_evenAfterTheFirstIsMined_soOnlyOneIssuanceLands", async () => {
    const first = expectOk("pspMint", await post(body(SP(1)), withKey("order-1")));
    await e.send(e.who.brand, first);
    const again = await post(body(SP(1)), withKey("order-1"));
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, first);
    const raw = await e.who.brand.signTransaction(Transaction.from(hexlify(getBytes(Buffer.from(first.tx, "base64")))));
    await assert.rejects(e.node.provider.broadcastTransaction(raw), /nonce/i);
    assert.ok(await e.node.provider.getTransactionReceipt(keccak256(raw)));
    assert.equal(await e.c.pspVault.balanceOf(MAIN, e.who.alice.address), SP(1));
  });

  it("aReplay_isMarkedWithTheIdempotentReplayedHeader", async () => {
    const res1 = await fetch(e.api.url + mintPath, {
      method: "POST",
      headers: { "content-type": "application/json", ...withKey("order-h") },
      body: JSON.stringify(body(SP(1))),
    });
    assert.equal(res1.status, 200);
    assert.equal(res1.headers.get("idempotent-replayed"), null);
    const res2 = await fetch(e.api.url + mintPath, {
      method: "POST",
      headers: { "content-type": "application/json", ...withKey("order-h") },
      body: JSON.stringify(body(SP(1))),
    });
    assert.equal(res2.headers.get("idempotent-replayed"), "true");
    assert.equal(await res2.text(), await res1.text());
  });

  it("sameKeyWithAnotherBody_is409", async () => {
    const first = expectOk("pspMint", await post(body(SP(1)), withKey("order-2")));
    const d = expectError(await post(body(SP(2)), withKey("order-2")), 409, "CONFLICT");
    assert.deepEqual(d, { route: "pspMint", nonce: first.nonce });
  });

  it("concurrentBuildsWithOneKey_allGetTheSameAnswer", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(body(SP(3)), withKey("order-3"))));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    for (const a of answers) assert.deepEqual(a.body.data, answers[0].body.data);
  });

  it("keysAreScopedToTheApiKey_anotherCallerNeitherGetsTheAnswerNorIsBlocked", async () => {
    const mine = expectOk("pspMint", await post(body(SP(1)), withKey("order-4")));
    const theirs = await post(body(SP(2)), withKey("order-4", otherKey));
    assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
    assert.equal(theirs.body.data.call.args[2], SP(2).toString());
    assert.notEqual(theirs.body.data.tx, mine.tx);
  });

  it("anonymousCallers_cannotUseKeys_401", async () => {
    const transfer = { input: { to: e.who.bob.address, amount: "1" }, key: e.who.alice.address };
    const res = await e.api.call("POST", routes.buildTransfer.path, transfer, { "idempotency-key": "k" });
    const d = expectError(res, 401, "UNAUTHORIZED");
    assert.equal(d, undefined);
    assert.equal(res.body.error.message, "Idempotency-Key needs an API key (keys are kept per caller)");
  });

  it("aMalformedKey_is400", async () => {
    expectError(await post(body(SP(1)), withKey("bad key with spaces")), 400, "INVALID_INPUT");
  });

  it("afterTheRetentionWindow_theKeyBuildsAfresh", async () => {
    expectOk("pspMint", await post(body(SP(1)), withKey("order-5")));
    await e.api.service.ctx.db.query(
      "UPDATE build_idempotency SET expires_at = now() - interval '1 second' WHERE idempotency_key = 'order-5'",
    );
    const fresh = await post(body(SP(2)), withKey("order-5"));
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.data.call.args[2], SP(2).toString());
  });

  it("anExplicitNonce_isBuiltAsGiven_andOneAlreadyMinedIs409", async () => {
    const next = await e.node.provider.getTransactionCount(e.who.brand.address, "latest");
    const ahead = expectOk("pspMint", await post(body(SP(1), { nonce: next + 2 }), e.auth));
    assert.equal(ahead.nonce, next + 2);
    assert.equal(Transaction.from(hexlify(getBytes(Buffer.from(ahead.tx, "base64")))).nonce, next + 2);
    const d = expectError(await post(body(SP(1), { nonce: next - 1 }), e.auth), 409, "CONFLICT");
    assert.deepEqual(d, { nonce: next - 1, next });
  });
});
