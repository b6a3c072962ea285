import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import { devSafe, devWallet } from "@points/testkit";
import { expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { safeProposer } from "./helpers/safe.js";
import { bulkCampaign, CAMPAIGN, CAMPAIGN_ID, pspOf, recipients } from "./helpers/bulk.js";

// A bulk drop signed by a 2-of-3 Safe (docs/rules.md#bulk-requests): one Safe transaction per
// chunk with consecutive Safe nonces, each proposed, signed by two owners and relayed in order.
describe("bulk routes: a Safe signer gets one Safe transaction per chunk", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  before(async () => {
    e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000" }));
    await bulkCampaign(e, SP(100));
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
    await (await e.c.pspVault.connect(e.who.brand).setCampaignAdmin(CAMPAIGN_ID, safe.address, true)).wait();
  });
  after(() => e?.stop());

  it("mint_bySafe_eachChunkIsASafeTxWithConsecutiveNonces_executedInOrder_exactBalances", async () => {
    const to = recipients(50, "safe");
    const plan = expectOk(
      "bulkPspMint",
      await e.call("bulkPspMint", {
        body: {
          campaignId: CAMPAIGN,
          recipients: to.map((a) => ({ address: a, amount: "0.5" })),
          bulkId: "safe-drop",
          gasCeiling: 1_000_000,
          from: safe.address,
        },
      }),
    );
    assert.ok(plan.chunkCount > 1, `${plan.chunkCount} chunk(s)`);
    const { run } = safeProposer(e, safe, relayer);
    plan.chunks.forEach((c, i) => {
      assert.equal(c.tx!.safe!.tx.nonce, String(i));
      assert.equal(c.tx!.safe!.tx.data, c.tx!.data);
      assert.equal(c.tx!.safe!.tx.to, e.record.pspVault);
    });
    for (const c of plan.chunks) await run(c.tx!.safe!.tx);
    for (const a of to) assert.equal(await pspOf(e, a), SP(1) / 2n);
    const c = await e.c.pspVault.getCampaign(CAMPAIGN_ID);
    assert.equal(c.outstanding, SP(25));
  });

  it("mint_bySafeWithoutAuthority_isMinterNotAuthorized", async () => {
    await (await e.c.pspVault.connect(e.who.brand).setCampaignAdmin(CAMPAIGN_ID, safe.address, false)).wait();
    const res = await e.call("bulkPspMint", {
      body: { campaignId: CAMPAIGN, recipients: [{ address: recipients(1, "x")[0], amount: "1" }], from: safe.address },
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(res.body.error.details.args, { campaignId: CAMPAIGN_ID, minter: safe.address });
  });
});
