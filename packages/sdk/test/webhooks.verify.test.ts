import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { PointsApiError, verifyWebhook } from "../src/index.js";

// Signed as the Standard Webhooks spec (and the API's dispatcher) signs: HMAC-SHA256 keyed by the
// base64 part of the whsec_ secret, over `id.timestamp.body`, sent as "v1,<base64>".
const secret = `whsec_${randomBytes(32).toString("base64")}`;
const sign = (id: string, ts: number, body: string, key = secret) =>
  `v1,${createHmac("sha256", Buffer.from(key.slice(6), "base64"))
    .update(`${id}.${ts}.${body}`)
    .digest("base64")}`;

const event = {
  type: "ledger.event",
  timestamp: "2026-11-26T19:00:00.000Z",
  data: {
    program: "acme",
    chainId: "31337",
    blockNumber: 12,
    logIndex: 0,
    txHash: "0x" + "ab".repeat(32),
    blockTime: "2026-11-26T18:59:59.000Z",
    contract: "pspVault",
    address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    event: "PSPMinted",
    campaignId: "0x" + "01".repeat(32),
    args: { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: "5" },
  },
};

const refusedAs = (code: string) => (e: unknown) => {
  assert.ok(e instanceof PointsApiError);
  assert.equal(e.code, code);
  return true;
};

describe("verifyWebhook", () => {
  const body = JSON.stringify(event);
  const id = "msg_2b7f1c";
  const ts = Math.floor(Date.now() / 1000);

  it("aSignedDelivery_verifies_andIsTyped_withTheWebhookId", async () => {
    const headers = { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sign(id, ts, body) };
    const got = await verifyWebhook(body, headers, secret);
    assert.deepEqual(got, { id, ...event });
    // Fetch's Headers and bytes work too; a second (rotated) signature is accepted alongside.
    const h = new Headers({ ...headers, "webhook-signature": `v1,AAAA ${sign(id, ts, body)}` });
    assert.equal((await verifyWebhook(new TextEncoder().encode(body), h, secret)).data.event, "PSPMinted");
  });

  it("aTamperedBody_anotherSecret_aStaleTimestamp_orNoHeaders_areUnauthorized", async () => {
    const headers = (b: string, t = ts, key = secret) => ({
      "webhook-id": id,
      "webhook-timestamp": String(t),
      "webhook-signature": sign(id, t, b, key),
    });
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    await assert.rejects(verifyWebhook(body.replace('"5"', '"500"'), headers(body), secret), refusedAs("UNAUTHORIZED"));
    await assert.rejects(verifyWebhook(body, headers(body, ts, other), secret), refusedAs("UNAUTHORIZED"));
    await assert.rejects(verifyWebhook(body, headers(body, ts - 301), secret), refusedAs("UNAUTHORIZED"));
    await assert.rejects(verifyWebhook(body, {}, secret), refusedAs("UNAUTHORIZED"));
  });

  it("aSignedBodyThatIsNoLedgerEvent_isInvalidInput", async () => {
    const odd = JSON.stringify({ type: "other" });
    const headers = { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sign(id, ts, odd) };
    await assert.rejects(verifyWebhook(odd, headers, secret), refusedAs("INVALID_INPUT"));
  });
});
