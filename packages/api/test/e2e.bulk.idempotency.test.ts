import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { getBytes, hexlify, Transaction } from "ethers";
import { expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, pspOf, recipients } from "./helpers/bulk.js";

// The bulk id is a drop's idempotency key (docs/bulk-idempotency.md): a plan built again for the
// same rows and bulk id holds only the rows not yet issued, on chain or pending, whatever plan
// file the caller kept; other rows under the same bulk id are 409 BULK_ID_REUSED.
describe("bulk routes: the bulk id is an idempotency key", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000", LOG_LEVEL: "error" }));
    await bulkCampaign(e, SP(5000));
  });
  after(() => e?.stop());

  const csv = (to: string[], amount = (i: number) => `${(i % 3) + 1}`) =>
    to.map((a, i) => `${a},${amount(i)}`).join("\n");
  const build = async (recipients: string, bulkId: string, gasCeiling = 1_000_000) => {
    const res = await e.call("bulkPspMint", {
      body: { campaignId: CAMPAIGN, recipients, metadata: "drop", bulkId, gasCeiling, from: e.who.brand.address },
    });
    return res;
  };

  it("mint_planFileLost_afterOneChunkLanded_rebuiltPlanHoldsOnlyTheOtherRows_andNoOneIsPaidTwice", async () => {
    const to = recipients(120, "lost-plan");
    const first = expectOk("bulkPspMint", await build(csv(to), "lost-plan"));
    assert.ok(first.chunkCount > 2, `chunks: ${first.chunkCount}`);
    assert.deepEqual(first.done, { rowCount: 0, totalAmount: "0", highestIndex: 0, chunks: [] });
    // The first chunk lands, then the plan file is lost.
    const landed = await e.send(e.who.brand, first.chunks[0]!.tx!);
    const paidFirst = first.chunks[0]!.rowCount;

    // Rebuilt under another gas ceiling: other chunking, same drop.
    const again = expectOk("bulkPspMint", await build(csv(to), "lost-plan", 1_500_000));
    assert.equal(again.rowCount, 120);
    assert.equal(again.done.rowCount, paidFirst);
    assert.deepEqual(again.done.chunks, [
      { tag: first.chunks[0]!.tag, hash: landed.hash, status: "mined", rowCount: paidFirst },
    ]);
    assert.equal(again.done.highestIndex, 1);
    assert.equal(
      again.chunks.reduce((s, c) => s + c.rowCount, 0),
      120 - paidFirst,
    );
    assert.equal(again.chunks[0]!.firstRow, paidFirst + 1);
    // Tags continue after the chunk already on chain, so none repeats one of it.
    again.chunks.forEach((c, i) => assert.equal(c.tag, `bulk:lost-plan:${i + 2}/${again.chunkCount + 1}`));
    for (const c of again.chunks) await e.send(e.who.brand, c.tx!);
    for (const [i, a] of to.entries()) assert.equal(await pspOf(e, a), SP((i % 3) + 1), `row ${i + 1}`);

    // A third build finds the whole drop issued: nothing to sign.
    const third = expectOk("bulkPspMint", await build(csv(to), "lost-plan"));
    assert.equal(third.chunkCount, 0);
    assert.deepEqual(third.chunks, []);
    assert.equal(third.done.rowCount, 120);
    assert.equal(third.done.totalAmount, to.reduce((s, _, i) => s + SP((i % 3) + 1), 0n).toString());
  });

  it("mint_chunkPendingInTheMempool_isNotBuiltAgain", async () => {
    const to = recipients(60, "pending");
    const first = expectOk("bulkPspMint", await build(csv(to), "pending-1"));
    assert.ok(first.chunkCount > 1);
    await e.node.setAutomine(false);
    try {
      const unsigned = Transaction.from(hexlify(getBytes(Buffer.from(first.chunks[0]!.tx!.tx, "base64"))));
      const sent = await e.node.provider.broadcastTransaction(await e.who.brand.signTransaction(unsigned));
      const again = expectOk("bulkPspMint", await build(csv(to), "pending-1"));
      assert.deepEqual(again.done.chunks, [
        { tag: first.chunks[0]!.tag, hash: sent.hash, status: "pending", rowCount: first.chunks[0]!.rowCount },
      ]);
      assert.equal(
        again.chunks.reduce((s, c) => s + c.rowCount, 0),
        60 - first.chunks[0]!.rowCount,
      );
      // Built after the pending chunk: the next nonce.
      assert.equal(again.chunks[0]!.tx!.nonce, unsigned.nonce + 1);
      await e.node.mine(1);
      await e.node.setAutomine(true);
      for (const c of again.chunks) await e.send(e.who.brand, c.tx!);
    } finally {
      await e.node.setAutomine(true);
    }
    for (const [i, a] of to.entries()) assert.equal(await pspOf(e, a), SP((i % 3) + 1), `row ${i + 1}`);
  });

  it("mint_sameBulkId_otherAmountOrMissingRow_is409BulkIdReused_withWhatDiffers_andNothingIsBuilt", async () => {
    const to = recipients(3, "reused");
    const plan = expectOk("bulkPspMint", await build(csv(to), "reused-1"));
    const receipt = await e.send(e.who.brand, plan.chunks[0]!.tx!);

    const otherAmount = await build(
      csv(to, (i) => (i === 1 ? "7" : `${(i % 3) + 1}`)),
      "reused-1",
    );
    assert.equal(otherAmount.status, 409);
    assert.equal(otherAmount.body.error.code, "CONFLICT");
    assert.deepEqual(otherAmount.body.error.details, {
      reason: "BULK_ID_REUSED",
      bulkId: "reused-1",
      count: 1,
      differences: [
        {
          address: to[1],
          status: "mined",
          hash: receipt.hash,
          field: "amount",
          issued: SP(2).toString(),
          requested: SP(7).toString(),
        },
      ],
    });

    const missing = await build(csv(to.slice(0, 2)), "reused-1");
    assert.equal(missing.status, 409);
    assert.equal(missing.body.error.details.reason, "BULK_ID_REUSED");
    assert.deepEqual(missing.body.error.details.differences, [
      { address: to[2], status: "mined", hash: receipt.hash, field: "address", issued: SP(3).toString() },
    ]);
    for (const [i, a] of to.entries()) assert.equal(await pspOf(e, a), SP((i % 3) + 1));
  });
});
