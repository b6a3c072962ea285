import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { send } from "./helpers/http.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const QUOTA = 10;
const PARALLEL = 25;

// The quota was counted apart from the insert, so 25 parallel deploys against
// a quota of 10 all got 202. Two API instances share one PostgreSQL, as in production.
describe("onboarding: the deploy quota holds under 25 parallel deploys on two instances", () => {
  let db: ScratchDatabase;
  const apis: TestApi[] = [];
  before(async () => {
    db = await createScratchDatabase();
    const env = {
      DATABASE_URL: db.url,
      // Refusals and accepted deploys need no chain while no release is recorded.
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      DEPLOY_QUOTA_PER_DAY: String(QUOTA),
      RATE_LIMIT_PER_MINUTE_KEY: "1000",
    };
    apis.push(await startApi("http://127.0.0.1:9", env));
    apis.push(await startApi("http://127.0.0.1:9", env));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.close()));
    await db?.drop();
  });

  it("attack_25ParallelDeploys_againstAQuotaOf10_exactly10Are202_15Are429Quota", async () => {
    const headers = {
      "content-type": "application/json",
      ...(await bearerFor(apis[0].service, "racer", [...DEPLOY_SCOPES])),
    };
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        send(apis[i % 2].url, "POST", "/api/v1/client-onboarding/deploy", {
          body: JSON.stringify(onboardingBody(`race${i}`, DEPLOYER)),
          headers,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(QUOTA).fill(202), ...Array(PARALLEL - QUOTA).fill(429)]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      assert.equal(refused.body.error.code, "RATE_LIMITED");
      assert.equal(refused.body.error.message, `deploy quota reached: ${QUOTA} deploys per 24 hours; try again later`);
      assert.deepEqual(refused.body.error.details, { reason: "quota", limit: QUOTA });
    }
    const [{ n }] = await apis[1].service.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM onboarding_tasks");
    assert.equal(Number(n), QUOTA);
  });
});
