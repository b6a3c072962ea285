import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { assertError, send } from "./helpers/http.js";
import { inventedKeyLookups } from "./helpers/inventedKeys.js";
import { requestCode } from "./helpers/console.js";

// Budgets here are a handful of requests: the document hook's own fetches would spend them.
process.env.API_DOCUMENT_HOOK = "off";
const CLOSED_PORT = "http://127.0.0.1:9";
const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const PER_IP = 10;
const CODES_PER_IP = 4;
const QUOTA = 5;
const from = (ip: string) => ({ "x-forwarded-for": ip });

// Three instances, each with its own app and pool, on one PostgreSQL database, as when scaled
// out (packages/api/README.md#scaling-out): every budget is spent once, not once per instance.
describe("scale-out: limits hold across three API instances on one database", () => {
  let db: ScratchDatabase;
  const apis: TestApi[] = [];
  before(async () => {
    db = await createScratchDatabase();
    const env = {
      DATABASE_URL: db.url,
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      TRUST_PROXY: "1",
      RATE_LIMIT_PER_MINUTE_IP: String(PER_IP),
      RATE_LIMIT_PER_MINUTE_KEY: "1000",
      CONSOLE_CODES_PER_IP: String(CODES_PER_IP),
      DEPLOY_QUOTA_PER_DAY: String(QUOTA),
    };
    for (let i = 0; i < 3; i++) apis.push(await startApi(CLOSED_PORT, env));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.close()));
    await db?.drop();
  });

  it("oneIp_getsExactlyItsBudget_acrossAllThree_thenIs429RateLimited_withRetryAfter", async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * PER_IP }, (_, i) =>
        send(apis[i % 3].url, "GET", "/api/v1/contracts/factories", { headers: from("203.0.113.50") }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status !== 200);
    assert.equal(ok.length, PER_IP);
    assert.equal(limited.length, 2 * PER_IP);
    for (const res of limited) {
      assertError(res, "RATE_LIMITED");
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers.get("retry-after")}`);
      assert.match(res.headers.get("ratelimit-policy") ?? "", /q=10/);
    }
    // Another IP has its own budget on every instance.
    assert.equal(
      (await send(apis[2].url, "GET", "/api/v1/contracts/factories", { headers: from("203.0.113.51") })).status,
      200,
    );
  });

  it("codeRequests_fromOneNetwork_getExactlyTheBudget_acrossAllThree", async () => {
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => requestCode(apis[i % 3].url, `c${i}@example.com`, from("203.0.113.60"))),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, CODES_PER_IP);
    for (const res of answers.filter((a) => a.status !== 200)) {
      assertError(res, "RATE_LIMITED");
      assert.equal(res.body.error.message, "too many codes requested from this network: wait 15 minutes");
    }
    const [{ n }] = await apis[0].service.ctx.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM login_codes WHERE ip = '203.0.113.60'",
    );
    assert.equal(Number(n), CODES_PER_IP);
  });

  it("deployQuota_parallelDeploysOnAllThree_exactlyTheQuotaIsAccepted", async () => {
    const headers = {
      "content-type": "application/json",
      ...(await bearerFor(apis[0].service, "racer", [...DEPLOY_SCOPES])),
    };
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        send(apis[i % 3].url, "POST", "/api/v1/client-onboarding/deploy", {
          body: JSON.stringify(onboardingBody(`scale${i}`, DEPLOYER)),
          headers,
        }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array(QUOTA).fill(202), ...Array(15 - QUOTA).fill(429)]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      assert.deepEqual(refused.body.error.details, { reason: "quota", limit: QUOTA });
    }
    const [{ n }] = await apis[1].service.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM onboarding_tasks");
    assert.equal(Number(n), QUOTA);
  });
  it("inventedKeys_acrossAllThree_costTheIpBudgetOfLookups_plusOnePerOtherInstance", async () => {
    // Each instance alone would look up PER_IP of them (3 x PER_IP); the shared count stops all
    // three once the IP's budget is spent, each after the one lookup that tells it.
    assert.equal(await inventedKeyLookups(apis, "203.0.113.80", 3 * PER_IP), PER_IP + 2);
  });
});
