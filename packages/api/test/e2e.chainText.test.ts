import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setupE2E } from "./helpers/e2e.js";
import { fundedCampaign } from "@points/testkit";

/** Text on chain is written by campaign admins and brands: it is read leniently, never trusted. */
describe("chain text with NUL and invalid UTF-8", () => {
  let e: Awaited<ReturnType<typeof setupE2E>>;

  before(async () => {
    e = await setupE2E();
    // NUL, two bytes that are never UTF-8, a valid "é", then ASCII.
    const metadata = Uint8Array.from([0x00, 0xff, 0xfe, 0xc3, 0xa9, 0x6f, 0x6b]);
    await fundedCampaign(e.node.provider, e.record, e.usdc, "garbled", 1_000n, metadata);
  });
  after(() => e?.stop());

  it("campaignMetadata_withNulAndInvalidUtf8_readsAsReplacementCharacters_in200", async () => {
    const res = await e.call("pspCampaign", { params: { campaignId: "garbled" } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.metadata, "\uFFFD\uFFFD\uFFFDéok");
    assert.equal(res.body.data.status, "Active");
  });

  it("campaignMetadata_thatIsValidUtf8_readsUnchanged", async () => {
    await fundedCampaign(e.node.provider, e.record, e.usdc, "clean", 1_000n, "summer 😀 ünïcode");
    const res = await e.call("pspCampaign", { params: { campaignId: "clean" } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.metadata, "summer 😀 ünïcode");
  });
});
