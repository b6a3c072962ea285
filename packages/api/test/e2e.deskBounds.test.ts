import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Wallet } from "ethers";
import { deskTypedData } from "@points/schema";
import { expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// The desk simulates each request before sending,
// holds what the chain would refuse or skipped with backoff, records only what a batch really
// finalized as sent, and stops for the day at its gas budget (packages/api/README.md).
describe("e2e: redemption desk bounds", () => {
  let e: E2E;
  let tenant: Record<string, string>;
  let operator: Record<string, string>;
  let passes = 0;
  const DELAY = 3600;
  const path = () => `/api/v1/programs/${e.record.brand}/redemption-desk`;
  const now = () => Math.floor(Date.now() / 1000);
  const get = async () => expectOk("redemptionDeskGet", await e.api.call("GET", path(), undefined, tenant));
  const sign = async (signer: Wallet, msg: Parameters<typeof deskTypedData>[2]) => {
    const t = deskTypedData(31337, e.record.factory, msg);
    return signer.signTypedData(t.domain, t.types, t.message);
  };
  async function setPolicy(policy: "automatic" | "manual") {
    const version = (await get()).version;
    const signedUntil = now() + 600;
    const signature = await sign(e.who.brand, { kind: "policy", policy, version, signedUntil });
    const body = { policy, version, manager: e.who.brand.address, signature, signedUntil };
    expectOk("redemptionDeskPolicySet", await e.api.call("PUT", `${path()}/policy`, body, tenant));
  }
  async function approve(requestId: string) {
    const signedUntil = now() + 600;
    const msg = { kind: "decision", requestId, decision: "approve", reason: "", signedUntil } as const;
    const signature = await sign(e.who.brand, msg);
    const body = { decision: "approve", reason: "", manager: e.who.brand.address, signature, signedUntil };
    expectOk(
      "redemptionDeskDecide",
      await e.api.call("POST", `${path()}/requests/${requestId}/decision`, body, tenant),
    );
  }
  const status = async (id: bigint | string) => Number((await e.c.factory.getRedeemRequest(id)).status);
  const executorNonce = () => e.node.provider.getTransactionCount(e.who.executor.address, "latest");
  /** alice requests `n` redemptions of `amount` SP wei, mined in one block; returns their ids. */
  async function request(n: number, amount: bigint): Promise<string[]> {
    const first = (await e.c.factory.redeemRequestCount()) + 1n;
    const f = e.c.factory.connect(e.who.alice);
    const args = [e.usdc, e.who.bob.address, amount, false] as const;
    const nonce = await e.who.alice.getNonce("latest");
    const gasLimit = ((await f.requestRedeem.estimateGas(...args)) * 3n) / 2n;
    await e.node.setAutomine(false);
    try {
      await Promise.all(Array.from({ length: n }, (_, i) => f.requestRedeem(...args, { nonce: nonce + i, gasLimit })));
      while ((await e.who.alice.getNonce("latest")) < nonce + n) await e.node.mine();
    } finally {
      await e.node.setAutomine(true);
    }
    return Array.from({ length: n }, (_, i) => (first + BigInt(i)).toString());
  }
  async function mature() {
    await e.node.increaseTime(DELAY + 1);
    await e.node.mine();
  }
  async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /**
   * Waits for `n` more complete desk passes (counted, not timed): it fails only when the desk stops making
   * passes (none for 60 s), so a loaded machine, where 30 passes of 30 simulations take minutes, waits longer.
   */
  async function morePasses(n: number) {
    const target = passes + n;
    let seen = passes;
    let lastProgress = Date.now();
    for (;;) {
      if (passes >= target) return;
      if (passes !== seen) [seen, lastProgress] = [passes, Date.now()];
      if (Date.now() - lastProgress > 60_000)
        throw new Error(`the desk made no pass for 60 s (${target - passes} of ${n} passes to go)`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const db = () => e.api.service.ctx.db;
  const boundsPath = () => `/api/v1/operator/programs/${e.record.brand}/redemption-desk/bounds`;
  /** The operator sets the program's own bounds (null: the server's default). */
  const setBounds = async (body: { minAmount: string | null; gasBudgetPerDay: string | null }) =>
    expectOk("operatorDeskBoundsSet", await e.api.call("PUT", boundsPath(), body, operator));

  before(async () => {
    e = await setupE2E({}, () => ({ DESK_BACKOFF_MIN_MS: "1000", DESK_BACKOFF_MAX_MS: "4000" }));
    const keys = e.api.service.ctx.keys;
    const mine = await keys.create("acme tenant");
    tenant = { authorization: `Bearer ${mine.key}` };
    operator = { authorization: `Bearer ${(await keys.create("operator", ["admin"])).key}` };
    await db().query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ($1, $2, 'h', '{}', $3, '31337', 'succeeded', $3)`,
      [randomUUID(), mine.info.id, e.record.brand],
    );
    const { brand, alice } = e.who;
    await e.giveSp(alice.address, SP(1000));
    await (await e.c.factory.connect(brand).addToRedeemWhitelist(alice.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(e.who.bob.address)).wait();
    await (await e.c.points.connect(alice).approve(e.record.factory, SP(1000))).wait();
    // Counts the desk's passes (the loop calls this.tick()), so tests wait on passes, not time.
    const desk = e.api.service.desk!.job;
    const tick = desk.tick.bind(desk);
    desk.tick = async () => {
      const n = await tick();
      passes++;
      return n;
    };
  });
  after(async () => {
    await e?.node.setAutomine(true).catch(() => undefined);
    await e?.stop();
  });

  it("operatorBounds_setBeforeAnyPolicy_areShownOnTheDesk_andTheFirstPolicyChangeStillWorks", async () => {
    const before = await get();
    assert.equal(before.version, 0);
    const set = await setBounds({ minAmount: "5", gasBudgetPerDay: "123456" });
    assert.equal(set.programId, e.record.brand);
    assert.deepEqual(set.overrides, { minAmount: "5", gasBudgetPerDay: "123456" });
    assert.equal(set.bounds.minAmount, "5");
    assert.equal(set.bounds.gasBudgetPerDay, "123456");
    const d = await get();
    assert.deepEqual([d.policy, d.version, d.bounds.minAmount, d.bounds.gasBudgetPerDay], ["off", 0, "5", "123456"]);
    const reset = await setBounds({ minAmount: null, gasBudgetPerDay: null });
    assert.deepEqual(reset.overrides, { minAmount: null, gasBudgetPerDay: null });
    assert.deepEqual([reset.bounds.minAmount, reset.bounds.gasBudgetPerDay], [SP(1).toString(), "50000000"]);
  });

  it("operatorBounds_refused_toTheTenantsOwnKey_toAnonymousCallers_andForAnUnknownProgramOrBadBody", async () => {
    const body = { minAmount: "1", gasBudgetPerDay: "0" };
    // The tenant may not raise its own budget: the route is the operator's (admin scope).
    const own = await e.api.call("PUT", boundsPath(), body, tenant);
    assert.equal(own.status, 403, JSON.stringify(own.body));
    assert.equal(own.body.error.code, "FORBIDDEN");
    assert.equal(own.body.error.details.needed, "admin");
    const anonymous = await e.api.call("PUT", boundsPath(), body);
    assert.equal(anonymous.status, 401, JSON.stringify(anonymous.body));
    const unknown = await e.api.call(
      "PUT",
      "/api/v1/operator/programs/nosuchprogram/redemption-desk/bounds",
      body,
      operator,
    );
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    assert.equal(unknown.body.error.code, "NOT_FOUND");
    for (const bad of [{ minAmount: "-1", gasBudgetPerDay: null }, { minAmount: null }, { ...body, policy: "off" }]) {
      const r = await e.api.call("PUT", boundsPath(), bad, operator);
      assert.equal(r.status, 400, JSON.stringify([bad, r.body]));
      assert.equal(r.body.error.code, "INVALID_INPUT");
    }
    const d = await get();
    assert.deepEqual([d.bounds.minAmount, d.bounds.gasBudgetPerDay], [SP(1).toString(), "50000000"], "nothing changed");
  });

  it("approvedRequest_theBatchSkipped_isRecordedFailedWithTheChainsReason_heldAndNotResent", async () => {
    await setPolicy("manual");
    const [id] = await request(1, SP(1));
    await mature();
    const sent = await executorNonce();
    await e.node.setAutomine(false);
    try {
      await approve(id!);
      // The desk simulated it (fine) and its batch waits in the pool; the brand's switch to
      // basket mode, priced higher, is mined before it in the same block.
      await until("the batch in the pool", async () => {
        const pending = await e.node.provider.getTransactionCount(e.who.executor.address, "pending");
        return pending === sent + 1;
      });
      const fee = await e.node.provider.getFeeData();
      await e.c.factory.connect(e.who.brand).setBasketModeForced(true, {
        maxPriorityFeePerGas: (fee.maxPriorityFeePerGas ?? 1n) * 10n + 10n ** 9n,
        maxFeePerGas: (fee.maxFeePerGas ?? 10n ** 9n) * 10n + 10n ** 10n,
      });
      await e.node.mine();
    } finally {
      await e.node.setAutomine(true);
    }
    assert.equal(await executorNonce(), sent + 1, "one batch was mined");
    assert.equal(await status(id!), 1, "the batch skipped it: still pending");
    const why = "the batch skipped it: UnexpectedBasketMode(actual: true)";
    const entry = await until("the decision settled", async () => {
      const p = (await get()).pending.find((r) => r.requestId === id);
      return p?.decision?.status !== "queued" && p;
    });
    assert.equal(entry.decision?.status, "failed");
    assert.equal(entry.decision?.error, why);
    const held = (await get()).bounds.held.find((h) => h.requestId === id);
    assert.equal(held?.reason, why);
    await morePasses(10);
    assert.equal(await executorNonce(), sent + 1, "a skipped request is not sent again");
    // Leave the program as it was: basket mode off, the request cancelled by its requester.
    await (await e.c.factory.connect(e.who.brand).setBasketModeForced(false)).wait();
    await (await e.c.factory.connect(e.who.alice).cancelRedeem(id!)).wait();
  });

  it("attack_30RequestsOf1Wei_belowTheMinimum_or_refusedBySimulation_noTransactionOverManyPasses", async () => {
    await setPolicy("automatic");
    const ids = await request(30, 1n);
    await mature();
    const sent = await executorNonce();
    const spent = (await get()).bounds.gasSpentToday;
    // Below the default minimum (1 SP): the automatic desk does not even simulate them.
    await morePasses(10);
    assert.equal(await executorNonce(), sent);
    assert.equal((await get()).bounds.minAmount, SP(1).toString());
    assert.deepEqual((await get()).bounds.held, []);
    // A program that allows 1 wei: each request is simulated, refused, held; still 0 transactions.
    await setBounds({ minAmount: "1", gasBudgetPerDay: null });
    await morePasses(30);
    assert.equal(await executorNonce(), sent, "no transaction for requests simulation refuses");
    const d = await get();
    assert.deepEqual(d.bounds.held.map((h) => h.requestId).sort(), [...ids].sort());
    for (const h of d.bounds.held) assert.equal(h.reason, "simulation refused it: AmountTooSmall(amount: 1)");
    assert.equal(d.bounds.gasSpentToday, spent, "no gas spent on them");
    assert.ok(BigInt(d.bounds.gasSpentToday) <= BigInt(d.bounds.gasBudgetPerDay));
    for (const id of ids) assert.equal(await status(id), 1);
    await setBounds({ minAmount: null, gasBudgetPerDay: null });
  });

  it("gasBudget_spent_pausesTheProgramUntilTheNextUtcDay_andSaysSo", async () => {
    const spentFirst = BigInt((await get()).bounds.gasSpentToday);
    // Room for one request's batch today, not two.
    const budget = spentFirst + 250_000n;
    const set = await setBounds({ minAmount: null, gasBudgetPerDay: budget.toString() });
    assert.deepEqual(set.overrides, { minAmount: null, gasBudgetPerDay: budget.toString() });
    assert.equal(set.bounds.minAmount, SP(1).toString(), "the server's default minimum");
    const [first] = await request(1, SP(1));
    await mature();
    await until("the first finalized", async () => (await status(first!)) === 2);
    const sent = await executorNonce();
    const [second] = await request(1, SP(1));
    await mature();
    const d = await until("paused", async () => {
      const v = await get();
      return v.bounds.pausedUntil ? v : undefined;
    });
    await morePasses(10);
    assert.equal(await executorNonce(), sent, "nothing sent once the budget is spent");
    assert.equal(await status(second!), 1);
    const midnight = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000).toISOString();
    assert.equal(d.bounds.pausedUntil, midnight);
    assert.equal(d.bounds.gasBudgetPerDay, budget.toString());
    assert.ok(BigInt(d.bounds.gasSpentToday) <= budget, "spend stays under the budget");
    assert.match(d.bounds.reason ?? "", /gas budget for today/);
  });
});
