import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { freePort } from "@points/testkit";
import { createService, loadConfig } from "../src/index.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { configProblems } from "./helpers/config.js";
import { assertError, send } from "./helpers/http.js";
import { inventedKeyLookups } from "./helpers/inventedKeys.js";
import { startRedis, type PrivateRedis } from "./helpers/redis.js";

// Budgets here are a handful of requests: the document hook's own fetches would spend them.
process.env.API_DOCUMENT_HOOK = "off";
const CLOSED_PORT = "http://127.0.0.1:9";
const PER_IP = 10;
const from = (ip: string) => ({ "x-forwarded-for": ip });
const factories = (api: TestApi, ip: string) =>
  send(api.url, "GET", "/api/v1/contracts/factories", { headers: from(ip) });

// Three instances that share nothing but Redis (each has its own embedded database), so only
// Redis can make one budget of them (packages/api/README.md#scaling-out).
describe("scale-out on Redis: request budgets hold across three instances that share only Redis", () => {
  let redis: PrivateRedis;
  const apis: TestApi[] = [];
  before(async () => {
    redis = await startRedis();
    const env = {
      REDIS_URL: redis.url,
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      TRUST_PROXY: "1",
      RATE_LIMIT_PER_MINUTE_IP: String(PER_IP),
      // Budgets must be exact here: on a busy machine a Redis answer can take over the default 1 s, after
      // which the limiter lets the request through (that fallback is the readiness test's, with Redis stopped).
      REDIS_COMMAND_TIMEOUT_MS: "30000",
    };
    for (let i = 0; i < 3; i++) apis.push(await startApi(CLOSED_PORT, env));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.close()));
    await redis?.stop();
  });

  it("oneIp_getsExactlyItsBudget_acrossAllThree_thenIs429RateLimited_withRetryAfter", async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * PER_IP }, (_, i) => factories(apis[i % 3], "203.0.113.70")),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, PER_IP);
    const limited = answers.filter((a) => a.status !== 200);
    assert.equal(limited.length, 2 * PER_IP);
    for (const res of limited) {
      assertError(res, "RATE_LIMITED");
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${res.headers.get("retry-after")}`);
    }
    // Another IP has its own budget.
    assert.equal((await factories(apis[1], "203.0.113.71")).status, 200);
  });

  it("inventedKeys_acrossAllThree_costTheIpBudgetOfLookups_plusOnePerOtherInstance", async () => {
    // Each instance alone would look up PER_IP of them (3 x PER_IP); the shared count stops all
    // three once the IP's budget is spent, each after the one lookup that tells it.
    assert.equal(await inventedKeyLookups(apis, "203.0.113.81", 3 * PER_IP), PER_IP + 2);
  });

  it("readiness_namesRedis_andARedisThatGoesAway_letsRequestsThrough_andIsBackWhenItReturns", async () => {
    // The chain here is a closed port, so /ready is 503 for it whatever Redis does: the redis check is read.
    const redisCheck = async (api = apis[0]) => {
      const res = await send(api.url, "GET", "/ready");
      assertError(res, "NOT_READY");
      return res.body.error.details.checks.find((c: { name: string }) => c.name === "redis");
    };
    assert.deepEqual(await redisCheck(), { name: "redis", ok: true });
    await redis.stop();
    try {
      // The limiter cannot count: the request goes on (fails or not on its own merits), never a 500 from it.
      assert.equal((await factories(apis[0], "203.0.113.72")).status, 200);
      const down = await redisCheck();
      assert.equal(down.ok, false);
      assert.equal(down.reason, "unreachable");
      assert.match(down.error, /^redis did not answer/);
    } finally {
      await redis.restart();
    }
    // Each instance's client reconnects by itself (each on its own backoff): counting resumes once
    // all three are back, since an instance still reconnecting lets its requests through.
    for (const api of apis) {
      for (let i = 0; !(await redisCheck(api)).ok; i++) {
        assert.ok(i < 100, `redis not ready again on ${api.url} 10 s after it returned`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const answers = await Promise.all(Array.from({ length: PER_IP + 2 }, () => factories(apis[2], "203.0.113.73")));
    assert.equal(answers.filter((a) => a.status === 200).length, PER_IP);
  });
});

describe("Redis settings: refused before anything opens", () => {
  it("aRedisUrlThatIsNotRedis_isAConfigurationError", () => {
    assert.deepEqual(configProblems({ REDIS_URL: "http://127.0.0.1:6379" }), [
      "REDIS_URL: must be a redis:// or rediss:// URL with a host",
    ]);
    assert.deepEqual(configProblems({ REDIS_KEY_PREFIX: "has space" }), [
      "REDIS_KEY_PREFIX: must be 1-64 letters, digits, ':', '_' or '-'",
    ]);
    assert.deepEqual(configProblems({ REDIS_COMMAND_TIMEOUT_MS: "10" }), [
      "REDIS_COMMAND_TIMEOUT_MS: must be at least 50",
    ]);
  });

  it("aRedisThatDoesNotAnswer_stopsTheStart_namingTheServer_neverThePassword", async () => {
    const port = await freePort(); // nothing listens there
    const config = loadConfig({
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT }]),
      REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}/0`,
      WORKER: "off",
      LEDGER: "off",
      WEBHOOKS: "off",
      LOG_LEVEL: "silent",
      DATA_DIR: "memory://",
    });
    await assert.rejects(createService(config), (e: Error) => {
      assert.match(e.message, new RegExp(`^REDIS_URL: Redis at 127\\.0\\.0\\.1:${port} did not answer`));
      assert.match(e.message, /unset REDIS_URL/);
      assert.ok(!e.message.includes("hunter2secret"), e.message);
      return true;
    });
  });
});
