import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";

const CLOSED_PORT = "http://127.0.0.1:9";

// Budgets here are a handful of requests and the limiter counts every one, so the document
// hook's own fetch of /api/v1/openapi.json would spend one: these answers are checked by hand.
process.env.API_DOCUMENT_HOOK = "off";
const PER_IP = 3;
const PER_KEY = 5;
// A request answered without a chain; what matters is that it is counted.
const probe = (api: TestApi, headers: Record<string, string> = {}) =>
  send(api.url, "GET", "/api/v1/contracts/factories", { headers });

describe("http: rate limits per key and per IP", () => {
  let api: TestApi;
  let keyA: string;
  let keyB: string;
  before(async () => {
    api = await startApi(CLOSED_PORT, {
      RATE_LIMIT_PER_MINUTE_IP: String(PER_IP),
      RATE_LIMIT_PER_MINUTE_KEY: String(PER_KEY),
    });
    keyA = (await api.service.ctx.keys.create("a")).key;
    keyB = (await api.service.ctx.keys.create("b")).key;
  });
  after(async () => {
    await api?.close();
  });

  it("perIp_theRequestAfterTheBudget_is429RateLimited_inTheEnvelope", async () => {
    for (let i = 0; i < PER_IP; i++) assert.equal((await probe(api)).status, 200, `request ${i + 1}`);
    const limited = await probe(api);
    assertError(limited, "RATE_LIMITED");
    assert.match(limited.headers.get("ratelimit-policy") ?? "", /q=3/);
    // Unknown routes and documents are counted too: the limiter runs before routing.
    assertError(await send(api.url, "GET", "/nope"), "RATE_LIMITED");
  });

  it("perKey_aValidKeyHasItsOwnBudget_evenWhenItsIpIsExhausted", async () => {
    const a = { authorization: `Bearer ${keyA}` };
    for (let i = 0; i < PER_KEY; i++) assert.equal((await probe(api, a)).status, 200, `key A request ${i + 1}`);
    assertError(await probe(api, a), "RATE_LIMITED", "key A over budget");
  });

  it("perKey_aDifferentKeyHasItsOwnBudget", async () => {
    const b = { authorization: `Bearer ${keyB}` };
    for (let i = 0; i < PER_KEY; i++) assert.equal((await probe(api, b)).status, 200, `key B request ${i + 1}`);
    assertError(await probe(api, b), "RATE_LIMITED", "key B over budget");
  });

  it("inventedKeys_doNotBuyFreshBudgets_theyCountAgainstTheIp", async () => {
    // The IP is exhausted by the first test: a made-up key is limited, not merely refused.
    for (let i = 0; i < 3; i++) {
      const res = await probe(api, { authorization: `Bearer pk_invented${i}` });
      assertError(res, "RATE_LIMITED", `invented key ${i}`);
    }
  });
});

describe("http: rate limits behind a reverse proxy (TRUST_PROXY)", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi(CLOSED_PORT, { RATE_LIMIT_PER_MINUTE_IP: "2", TRUST_PROXY: "1" });
  });
  after(async () => {
    await api?.close();
  });

  it("eachForwardedClientIp_hasItsOwnBudget", async () => {
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    for (let i = 0; i < 2; i++) assert.equal((await probe(api, from("203.0.113.7"))).status, 200);
    assertError(await probe(api, from("203.0.113.7")), "RATE_LIMITED");
    assert.equal((await probe(api, from("203.0.113.8"))).status, 200);
  });
});
