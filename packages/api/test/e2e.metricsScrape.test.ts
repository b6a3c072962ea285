import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { setupE2E, USDC, type E2E } from "./helpers/e2e.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";
import { bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";

/** One sample of the Prometheus text exposition (version 0.0.4). */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text format's sample lines (comments and blank lines skipped); throws on any other line. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)",?/g))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The samples of `name` whose labels include `labels`. */
const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** `points_http_requests_total` for one method, route template and status (0: no series yet). */
const requests = (samples: Sample[], method: string, route: string, status: number) =>
  find(samples, "points_http_requests_total", { method, route, status: String(status) })[0]?.value ?? 0;

// The real service on PostgreSQL and a Hardhat node: work through real routes, then one scrape
// must count exactly that work, show the engine and the queue, and leak no secret.
describe("e2e: a Prometheus scrape after real work (PostgreSQL, Hardhat)", () => {
  let scratch: ScratchDatabase;
  let e: E2E;
  let admin: { authorization: string };
  let deployer: { authorization: string };
  let databaseUrl: string;
  let taskId: string;
  const scrape = async (headers: Record<string, string>) => fetch(`${e.api.url}/metrics`, { headers });

  before(async () => {
    scratch = await createScratchDatabase();
    // The test server trusts local connections, so the password is never checked: it is here to
    // be looked for in the scrape.
    const url = new URL(scratch.url);
    url.username = "postgres";
    url.password = "scrape-secret-pw-7f3a";
    databaseUrl = url.toString();
    e = await setupE2E({}, () => ({ DATABASE_URL: databaseUrl }));
    admin = await bearerFor(e.api.service, "ops", ["admin"]);
    deployer = await bearerFor(e.api.service, "deployer", [...DEPLOY_SCOPES]);
    // An onboarding deploy first (a second program: requests name "acme" from here on), so the chain's transaction engine exists and has sent.
    const res = await e.api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("scraped", e.who.brand.address),
      deployer,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    taskId = (res.body as { data: { taskId: string } }).data.taskId;
    assert.equal((await waitForTask(e.api, taskId, deployer)).status, "succeeded");
  });
  after(async () => {
    await e?.stop();
    await scratch?.drop();
  });

  it("countsExactlyTheRequestsMadeByRouteAndStatus_showsEngineAndQueueGauges_andLeaksNoSecret", async () => {
    const first = await scrape(admin);
    assert.equal(first.status, 200);
    const before = parseExposition(await first.text());

    const { alice } = e.who;
    const balance = "/api/v1/evm/balance/:address";
    const task = "/api/v1/client-onboarding/tasks/:taskId";
    for (let i = 0; i < 3; i++) {
      const res = await e.call("readBalance", { params: { address: alice.address }, query: { program: "acme" } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.equal(
      (await e.call("readBalance", { params: { address: "0x1234" }, query: { program: "acme" } })).status,
      400,
    );
    for (let i = 0; i < 2; i++) {
      const res = await e.call("buildMint", {
        body: { program: "acme", input: { asset: e.usdc, amount: USDC(5).toString() }, key: alice.address },
      });
      // No allowance yet: the build answers the approval to send first.
      assert.equal(res.status, 422, JSON.stringify(res.body));
    }
    assert.equal(
      (await e.api.call("GET", `/api/v1/client-onboarding/tasks/${taskId}`, undefined, deployer)).status,
      200,
    );

    const res = await scrape(admin);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    const now = parseExposition(text);
    const delta = (method: string, route: string, status: number) =>
      requests(now, method, route, status) - requests(before, method, route, status);
    assert.equal(delta("GET", balance, 200), 3);
    assert.equal(delta("GET", balance, 400), 1);
    assert.equal(delta("POST", "/api/v1/build/mint", 422), 2);
    assert.equal(delta("POST", "/api/v1/build/mint", 200), 0);
    assert.equal(delta("GET", task, 200), 1);
    // The first scrape is counted once it has been answered.
    assert.equal(delta("GET", "/metrics", 200), 1);
    const durations = (route: string) =>
      find(now, "points_http_request_duration_seconds_count", { method: "GET", route, status: "200" })[0]?.value ?? 0;
    assert.equal(durations(balance), requests(now, "GET", balance, 200));

    // The queue: the one deploy has succeeded, nothing else is queued anywhere.
    const tasks = Object.fromEntries(find(now, "points_onboarding_tasks").map((s) => [s.labels.state, s.value]));
    assert.deepEqual(tasks, { awaiting_approval: 0, queued: 0, running: 0, succeeded: 1, failed: 0 });
    assert.deepEqual(
      find(now, "points_webhook_pending_deliveries").map((s) => s.value),
      [0],
    );
    assert.deepEqual(
      find(now, "points_webhook_dead_endpoints").map((s) => s.value),
      [0],
    );

    // The engine of the executor that deployed: one series per gauge, automine left nothing unmined.
    const engine = { chain: "31337", key: e.who.executor.address };
    const one = (name: string) => {
      const series = find(now, name, engine);
      assert.equal(series.length, 1, `${name}: ${JSON.stringify(find(now, name))}`);
      return series[0].value;
    };
    assert.equal(one("points_engine_nonce_gap"), 0);
    assert.equal(one("points_engine_stuck_blocks"), 0);
    assert.equal(one("points_engine_paused"), 0);
    const pending = one("points_engine_pending_transactions");
    assert.ok(Number.isInteger(pending) && pending >= 0, `pending ${pending}`);
    const ether = one("points_engine_executor_balance_ether");
    const onChain = Number(await e.node.provider.getBalance(e.who.executor.address)) / 1e18;
    assert.ok(Math.abs(ether - onChain) < 1e-6, `balance ${ether}, chain ${onChain}`);
    assert.ok(find(now, "points_db_pool_connections", { state: "total" })[0].value >= 1);

    // No secret: the API keys, the executor's private key, the database password or URL.
    const executorKey = e.api.service.ctx.config.executorKey(31337)!;
    for (const secret of [
      admin.authorization.slice("Bearer ".length),
      deployer.authorization.slice("Bearer ".length),
      e.auth.authorization.slice("Bearer ".length),
      executorKey.replace(/^0x/, ""),
      "scrape-secret-pw-7f3a",
      databaseUrl,
    ])
      assert.equal(text.toLowerCase().includes(secret.toLowerCase()), false, `the scrape shows ${secret.slice(0, 6)}…`);
  });

  it("aWrongOrRevokedKey_is401InvalidToken_andANonAdminKey_is403", async () => {
    const check = async (headers: Record<string, string>, status: number, code: string) => {
      const res = await scrape(headers);
      assert.equal(res.status, status);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
      return res;
    };
    const wrong = await check({ authorization: "Bearer pk_not_a_real_key" }, 401, "UNAUTHORIZED");
    assert.equal(wrong.headers.get("www-authenticate"), 'Bearer realm="points", error="invalid_token"');
    const none = await check({}, 401, "UNAUTHORIZED");
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="points"');
    const { key, info } = await e.api.service.ctx.keys.create("revoked", ["admin"]);
    assert.equal((await scrape({ authorization: `Bearer ${key}` })).status, 200);
    assert.equal(await e.api.service.ctx.keys.revoke(info.id), true);
    await check({ authorization: `Bearer ${key}` }, 401, "UNAUTHORIZED");
    await check(deployer, 403, "FORBIDDEN");
  });
});
