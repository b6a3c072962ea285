import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Interface } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import { expectOk, expectRevert, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, CAMPAIGN_ID, pspOf, recipients } from "./helpers/bulk.js";

// Bulk routes built, signed and broadcast (docs/rules.md#bulk-requests): chunks under the gas
// ceiling, each simulated as the signer, consecutive nonces, tags on chain, exact balances.
describe("bulk routes: chunks signed and broadcast", () => {
  let e: E2E;
  const vault = new Interface(PSPVault__factory.abi);
  before(async () => {
    e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000", LOG_LEVEL: "error" }));
    await bulkCampaign(e, SP(1000));
  });
  after(() => e?.stop());

  const call = (name: "bulkPspMint", body: Record<string, unknown>) => e.call(name, { body });
  const sendAll = async (plan: { chunks: { tx?: { tx: string } }[] }, wallet = e.who.brand) => {
    const receipts = [];
    for (const ch of plan.chunks) receipts.push(await e.send(wallet, ch.tx!));
    return receipts;
  };

  it("mint_120Rows_underA1MGasCeiling_isSeveralChunks_eachUnderTheCeiling_andEveryBalanceIsExact", async () => {
    const to = recipients(120, "chunks");
    const res = await call("bulkPspMint", {
      campaignId: CAMPAIGN,
      recipients: to.map((a, i) => `${a},${(i % 5) + 1}.5`).join("\n"),
      metadata: "spring",
      bulkId: "spring-1",
      gasCeiling: 1_000_000,
      from: e.who.brand.address,
    });
    const plan = expectOk("bulkPspMint", res);
    assert.ok(plan.chunkCount > 1, `one chunk for 120 rows under 1M gas: ${plan.chunkCount}`);
    assert.equal(
      plan.chunks.reduce((s, c) => s + c.rowCount, 0),
      120,
    );
    const nonce = await e.node.provider.getTransactionCount(e.who.brand.address, "pending");
    plan.chunks.forEach((c, i) => {
      assert.ok(BigInt(c.simulatedGas) <= 1_000_000n);
      assert.equal(c.tx!.gas, c.simulatedGas);
      assert.equal(c.tx!.nonce, nonce + i);
      assert.equal(c.tag, `bulk:spring-1:${i + 1}/${plan.chunkCount}`);
      assert.equal(c.metadata, `spring ${c.tag}`);
    });
    const receipts = await sendAll(plan);
    // Every chunk's events carry its tag: a client finds on chain which chunks landed.
    receipts.forEach((r, i) => {
      const minted = r!.logs.map((l) => vault.parseLog(l)).filter((l) => l?.name === "PSPMinted");
      assert.equal(minted.length, plan.chunks[i].rowCount);
      assert.ok(minted.every((l) => l!.args.metadata === plan.chunks[i].metadata));
    });
    for (const [i, a] of to.entries()) assert.equal(await pspOf(e, a), SP((i % 5) + 1) + SP(1) / 2n);
  });

  it("mint_atTheExactBudget_builds_andOneWeiOver_is422InsufficientBudget", async () => {
    const c = await e.c.pspVault.getCampaign(CAMPAIGN_ID);
    const [x, y] = recipients(2, "edge");
    const half = c.available / 2n;
    const body = (extra: bigint) => ({
      campaignId: CAMPAIGN,
      recipients: [
        { address: x, amount: `${half}` },
        { address: y, amount: `${c.available - half + extra}` },
      ].map((r) => ({
        ...r,
        amount:
          (BigInt(r.amount) / 10n ** 18n).toString() +
          "." +
          (BigInt(r.amount) % 10n ** 18n).toString().padStart(18, "0"),
      })),
      from: e.who.brand.address,
    });
    const over = await call("bulkPspMint", body(1n));
    expectRevert(over, "pspVault", "InsufficientBudget", {
      campaignId: CAMPAIGN_ID,
      available: c.available.toString(),
      amount: (c.available + 1n).toString(),
    });
    const dry = expectOk("bulkPspMint", await call("bulkPspMint", { ...body(1n), dryRun: true }));
    assert.deepEqual(dry.budget, { available: c.available.toString(), shortfall: "1" });
    assert.deepEqual(dry.blocked?.name, "InsufficientBudget");
    const exact = expectOk("bulkPspMint", await call("bulkPspMint", body(0n)));
    await sendAll(exact);
    assert.equal((await e.c.pspVault.getCampaign(CAMPAIGN_ID)).available, 0n);
    assert.deepEqual([await pspOf(e, x), await pspOf(e, y)], [half, c.available - half]);
  });
});
