import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";

const CLOSED_PORT = "http://127.0.0.1:9";
// Budgets of a few requests: the document hook's own fetch would spend one.
process.env.API_DOCUMENT_HOOK = "off";

// The bulk routes' own limits (docs/rules.md#bulk-requests): a 2 MB body where every other
// route takes 100 kB, and a per-key budget of bulk requests on top of the general one.
describe("http: bulk body and rate limits", () => {
  let api: TestApi;
  let auth: Record<string, string>;
  before(async () => {
    api = await startApi(CLOSED_PORT, { RATE_LIMIT_BULK_PER_MINUTE: "3" });
    auth = { authorization: `Bearer ${(await api.service.ctx.keys.create("bulk")).key}` };
  });
  after(async () => {
    await api?.close();
  });

  const json = (body: unknown) => ({
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const bulk = (body: unknown) => send(api.url, "POST", "/studio/sdk/v1/bulk/psp/mint", json(body));

  it("aBodyOf1_5MB_passesTheBulkParser_butNotAnotherRoutes", async () => {
    const body = { campaignId: "c", recipients: "x".repeat(1_500_000), from: "0x" + "1".repeat(40) };
    const other = await send(api.url, "POST", "/studio/sdk/v1/tx/psp/mint", json(body));
    assertError(other, "PAYLOAD_TOO_LARGE");
    // Parsed and validated: the CSV text is one character over its limit.
    const res = await bulk({ ...body, recipients: "x".repeat(1_500_001) });
    assertError(res, "INVALID_INPUT");
  });

  it("theBulkRequestAfterTheBulkBudget_is429_whileOtherRoutesKeepServingTheKey", async () => {
    // The first test spent one bulk request.
    for (let i = 0; i < 2; i++) assert.notEqual((await bulk({})).status, 429, `bulk request ${i + 2}`);
    const limited = await bulk({});
    assertError(limited, "RATE_LIMITED");
    assert.match(limited.body.error.message, /at most 3 a minute/);
    const read = await send(api.url, "GET", "/api/v1/contracts/factories", { headers: auth });
    assert.equal(read.status, 200);
  });
});
