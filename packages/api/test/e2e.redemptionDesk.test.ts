import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { id as roleId, type Wallet } from "ethers";
import { deskTypedData } from "@points/schema";
import { expectError, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// The redemption desk (docs/deployment.md#redemption-desk): policy signed by a MANAGER_ROLE
// holder, the queue view, manual approval, rejection with a reason, automatic finalization of
// 200 matured requests in the block after readyAt, and an executor without EXECUTOR_ROLE.
describe("e2e: redemption desk", () => {
  let e: E2E;
  let tenant: Record<string, string>;
  let other: Record<string, string>;
  let admin: Record<string, string>;
  const DELAY = 3600;
  const path = () => `/api/v1/programs/${e.record.brand}/redemption-desk`;
  const now = () => Math.floor(Date.now() / 1000);

  const policyBody = async (signer: Wallet, policy: "automatic" | "manual" | "off", version: number) => {
    const signedUntil = now() + 600;
    const t = deskTypedData(31337, e.record.factory, { kind: "policy", policy, version, signedUntil });
    return {
      policy,
      version,
      manager: signer.address,
      signature: await signer.signTypedData(t.domain, t.types, t.message),
      signedUntil,
    };
  };
  const decisionBody = async (signer: Wallet, requestId: string, decision: "approve" | "reject", reason: string) => {
    const signedUntil = now() + 600;
    const t = deskTypedData(31337, e.record.factory, { kind: "decision", requestId, decision, reason, signedUntil });
    return {
      decision,
      reason,
      manager: signer.address,
      signature: await signer.signTypedData(t.domain, t.types, t.message),
      signedUntil,
    };
  };
  const get = async (auth = tenant) => expectOk("redemptionDeskGet", await e.api.call("GET", path(), undefined, auth));
  const setPolicy = (body: unknown, auth = tenant) => e.api.call("PUT", `${path()}/policy`, body, auth);
  const decide = (requestId: string, body: unknown, auth = tenant) =>
    e.api.call("POST", `${path()}/requests/${requestId}/decision`, body, auth);
  const status = async (requestId: bigint) => Number((await e.c.factory.getRedeemRequest(requestId)).status);
  /** alice requests `n` redemptions of 1 SP each (setup straight through ethers); returns their ids. */
  async function request(n: number): Promise<bigint[]> {
    const first = (await e.c.factory.redeemRequestCount()) + 1n;
    const f = e.c.factory.connect(e.who.alice);
    const args = [e.usdc, e.who.bob.address, SP(1), false] as const;
    if (n === 1) await f.requestRedeem(...args);
    else {
      // Many at once: sent together with their own nonces while no block is mined, then mined
      // until the pool is empty (ids follow nonce order, as when each is mined on arrival).
      const nonce = await e.who.alice.getNonce("latest");
      const gasLimit = ((await f.requestRedeem.estimateGas(...args)) * 3n) / 2n;
      await e.node.setAutomine(false);
      try {
        await Promise.all(
          Array.from({ length: n }, (_, i) => f.requestRedeem(...args, { nonce: nonce + i, gasLimit })),
        );
        while ((await e.who.alice.getNonce("latest")) < nonce + n) await e.node.mine();
      } finally {
        await e.node.setAutomine(true);
      }
    }
    assert.equal(await e.c.factory.redeemRequestCount(), first + BigInt(n) - 1n, "every request was made");
    return Array.from({ length: n }, (_, i) => first + BigInt(i));
  }
  async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  before(async () => {
    e = await setupE2E();
    const keys = e.api.service.ctx.keys;
    const mine = await keys.create("acme tenant");
    tenant = { authorization: `Bearer ${mine.key}` };
    other = { authorization: `Bearer ${(await keys.create("other tenant")).key}` };
    admin = { authorization: `Bearer ${(await keys.create("operator", ["admin"])).key}` };
    // The program is the tenant's: its onboarding task (as the deploy route records it) names it.
    await e.api.service.ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ($1, $2, 'h', '{}', $3, '31337', 'succeeded', $3)`,
      [randomUUID(), mine.info.id, e.record.brand],
    );
    const { brand, alice } = e.who;
    await e.giveSp(alice.address, SP(1000));
    await (await e.c.factory.connect(brand).addToRedeemWhitelist(alice.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(e.who.bob.address)).wait();
    await (await e.c.points.connect(alice).approve(e.record.factory, SP(1000))).wait();
  });
  after(async () => {
    await e.node.setAutomine(true).catch(() => undefined);
    await e?.stop();
  });

  it("get_byTheTenantOrAnAdminKey_isOff_ready; anotherTenant_404; noKey_401", async () => {
    const d = await get();
    assert.equal(d.policy, "off");
    assert.equal(d.version, 0);
    assert.equal(d.status, "off");
    assert.equal(d.executor, e.who.executor.address);
    assert.deepEqual(d.pending, []);
    assert.equal((await get(admin)).programId, e.record.brand);
    expectError(await e.api.call("GET", path(), undefined, other), 404, "NOT_FOUND");
    expectError(await e.api.call("GET", path(), undefined, e.auth), 404, "NOT_FOUND");
    expectError(await e.api.call("GET", path(), undefined, {}), 401, "UNAUTHORIZED");
  });

  it("setPolicy_signedByANonManager_is403MissingRole; byAnotherTenant_404; badSignature_403; nothingChanges", async () => {
    const byAlice = await policyBody(e.who.alice, "automatic", 0);
    const res = expectError(await setPolicy(byAlice), 403, "MISSING_ROLE");
    assert.deepEqual(res, { contract: "factory", role: "MANAGER_ROLE", account: e.who.alice.address });
    const byBrand = await policyBody(e.who.brand, "automatic", 0);
    expectError(await setPolicy(byBrand, other), 404, "NOT_FOUND");
    // A manager's name on someone else's signature, and a signature of another policy.
    assert.equal(
      expectError(await setPolicy({ ...byAlice, manager: e.who.brand.address }), 403, "FORBIDDEN").reason,
      "INVALID_SIGNATURE",
    );
    assert.equal(
      expectError(await setPolicy({ ...byBrand, policy: "manual" }), 403, "FORBIDDEN").reason,
      "INVALID_SIGNATURE",
    );
    const expired = await policyBody(e.who.brand, "automatic", 0);
    const late = expectError(await setPolicy({ ...expired, signedUntil: now() - 1 }), 403, "FORBIDDEN");
    assert.equal(late.reason, "SIGNATURE_EXPIRED");
    assert.equal((await get()).policy, "off");
  });

  it("setPolicy_byTheManager_manual_bumpsTheVersion; replayingTheSignature_409", async () => {
    const body = await policyBody(e.who.brand, "manual", 0);
    const d = expectOk("redemptionDeskPolicySet", await setPolicy(body));
    assert.equal(d.policy, "manual");
    assert.equal(d.version, 1);
    assert.equal(d.status, "ready");
    assert.equal(expectError(await setPolicy(body), 409, "CONFLICT").reason, "VERSION_MOVED");
  });

  it("manual_aRequestStaysPendingUntilApproved_thenTheExecutorFinalizesIt", async () => {
    const [idA] = await request(1);
    await e.node.increaseTime(DELAY + 1);
    await e.node.mine();
    const q = await get();
    const entry = q.pending.find((p) => p.requestId === idA!.toString());
    assert.ok(entry);
    assert.equal(entry.ready, true);
    assert.equal(entry.amount, SP(1).toString());
    assert.equal(entry.decision, null);
    await new Promise((r) => setTimeout(r, 1000)); // several job passes: manual waits for a decision
    assert.equal(await status(idA!), 1);
    const before = await e.c.usdc.balanceOf(e.who.bob.address);
    const d = expectOk(
      "redemptionDeskDecide",
      await decide(idA!.toString(), await decisionBody(e.who.brand, idA!.toString(), "approve", "")),
    );
    assert.equal(d.decision?.status, "queued");
    await until("finalized", async () => (await status(idA!)) === 2);
    assert.equal((await e.c.usdc.balanceOf(e.who.bob.address)) - before, 10n ** 6n);
    await until("decision sent", async () => (await get()).pending.every((p) => p.requestId !== idA!.toString()));
  });

  it("reject_withAReason_byTheManager_theExecutorRejects_andTheSpGoesBack; aNonManager_403; noReason_400", async () => {
    const [idR] = await request(1);
    const rid = idR!.toString();
    const res = expectError(
      await decide(rid, await decisionBody(e.who.alice, rid, "reject", "fraud")),
      403,
      "MISSING_ROLE",
    );
    assert.equal(res.account, e.who.alice.address);
    expectError(await decide(rid, await decisionBody(e.who.brand, rid, "reject", "fraud"), other), 404, "NOT_FOUND");
    expectError(await decide(rid, await decisionBody(e.who.brand, rid, "reject", "")), 400, "INVALID_INPUT");
    const spBefore = await e.c.points.balanceOf(e.who.alice.address);
    const d = expectOk(
      "redemptionDeskDecide",
      await decide(rid, await decisionBody(e.who.brand, rid, "reject", "address under review")),
    );
    assert.equal(d.decision?.reason, "address under review");
    assert.equal(d.decision?.decidedBy, e.who.brand.address);
    await until("rejected", async () => (await status(idR!)) === 4);
    assert.equal((await e.c.points.balanceOf(e.who.alice.address)) - spBefore, SP(1));
    expectError(await decide(rid, await decisionBody(e.who.brand, rid, "approve", "")), 404, "NOT_FOUND");
  });

  it("automatic_200MaturedRequests_areFinalizedInTheBlockAfterReadyAt_in4Batches", async () => {
    const v = (await get()).version;
    expectOk("redemptionDeskPolicySet", await setPolicy(await policyBody(e.who.brand, "automatic", v)));
    const ids = await request(200);
    const readyAt = Number(await e.c.factory.redeemReadyAt(ids[ids.length - 1]!));
    await e.node.setAutomine(false);
    try {
      // The first block whose timestamp reaches the last request's readyAt.
      await e.node.mineAt(readyAt);
      const ready = await e.node.provider.getBlockNumber();
      const executor = e.who.executor.address;
      const mined = await e.node.provider.getTransactionCount(executor, "latest");
      // The job sends its batches while no block is mined: they wait in the pool together.
      await until(
        "4 batches in the pool",
        async () => (await e.node.provider.getTransactionCount(executor, "pending")) - mined === 4,
      );
      await e.node.mine();
      const statuses = await Promise.all(ids.map(status));
      ids.forEach((id, i) => assert.equal(statuses[i], 2, `request ${id}`));
      const block = await e.node.provider.getBlock(ready + 1, true);
      assert.equal(block!.transactions.length, 4);
      assert.equal(await e.node.provider.getTransactionCount(executor, "latest"), mined + 4);
    } finally {
      await e.node.setAutomine(true);
    }
  });

  it("executorWithoutTheRole_statusSaysSo_andNothingIsSent_untilItIsGrantedAgain", async () => {
    const role = roleId("EXECUTOR_ROLE");
    await (await e.c.factory.connect(e.who.brand).revokeRole(role, e.who.executor.address)).wait();
    assert.equal((await get()).status, "executor_missing_role");
    const nonce = await e.node.provider.getTransactionCount(e.who.executor.address, "latest");
    const [id] = await request(1);
    await e.node.increaseTime(DELAY + 1);
    await e.node.mine();
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await status(id!), 1);
    assert.equal(await e.node.provider.getTransactionCount(e.who.executor.address, "latest"), nonce);
    await (await e.c.factory.connect(e.who.brand).grantRole(role, e.who.executor.address)).wait();
    assert.equal((await get()).status, "ready");
    await until("finalized after the grant", async () => (await status(id!)) === 2);
  });
});
