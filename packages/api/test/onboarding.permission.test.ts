import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { cookieHeader, signIn } from "./helpers/console.js";
import { signInWithWallet } from "./helpers/siwe.js";
import { assertError, send } from "./helpers/http.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const DEPLOY = "/api/v1/client-onboarding/deploy";

describe("onboarding: deploying is a permission the operator grants", () => {
  let api: TestApi;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const deployAs = (headers: Record<string, string>, brand: string, extra: Record<string, string> = {}) =>
    send(api.url, "POST", DEPLOY, {
      body: JSON.stringify(onboardingBody(brand, DEPLOYER)),
      headers: { "content-type": "application/json", ...headers, ...extra },
    });

  before(async () => {
    // Refusals need no chain; with no release recorded yet an accepted deploy needs none either.
    api = await startApi("http://127.0.0.1:9", {
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      REQUIRE_API_KEY: "true",
      DEPLOY_QUOTA_PER_DAY: "2",
      CONSOLE_DEPLOY_DOMAINS: "partner.example",
    });
  });
  after(() => api?.close());

  it("attack_aBuildAndReadKey_deploysOnTheExecutorsGas_isRefused403Scope", async () => {
    const { key } = await api.service.ctx.keys.create("integrator");
    const res = await deployAs(bearer(key), "scopeless");
    assertError(res, "FORBIDDEN");
    assert.equal(res.body.error.message, 'this API key lacks the "deploy" scope');
    assert.deepEqual(res.body.error.details, { reason: "scope", needed: "deploy", granted: ["build", "read"] });
    assert.equal((await api.service.ctx.db.query("SELECT 1 FROM onboarding_tasks")).length, 0);
  });

  it("attack_aReadOnlyKey_buildsTransactions_isRefused403Scope", async () => {
    const { key } = await api.service.ctx.keys.create("dashboard", ["read"]);
    const res = await send(api.url, "POST", "/api/v1/build/mint", {
      body: JSON.stringify({ to: DEPLOYER, amount: "1" }),
      headers: { "content-type": "application/json", ...bearer(key) },
    });
    assertError(res, "FORBIDDEN");
    assert.deepEqual(res.body.error.details, { reason: "scope", needed: "build", granted: ["read"] });
  });

  it("anAdminKey_holdsEveryScope_andADeployKeyDeploys", async () => {
    const admin = await api.service.ctx.keys.create("operator", ["admin"]);
    assert.equal((await deployAs(bearer(admin.key), "byadmin")).status, 202);
    const deployer = await api.service.ctx.keys.create("deployer", ["deploy"]);
    assert.equal((await deployAs(bearer(deployer.key), "bydeploykey")).status, 202);
  });

  it("attack_aFreshConsoleAccount_deploysWithRequireApiKeyOn_isRefused403Approval", async () => {
    const session = await signIn(api.url, "stranger@mailinator.example");
    const res = await deployAs(cookieHeader(session), "squat");
    assertError(res, "FORBIDDEN");
    assert.equal(
      res.body.error.message,
      "this account may not deploy yet: the operator must approve it (points-api accounts approve <email>)",
    );
    assert.deepEqual(res.body.error.details, { reason: "approval" });
    assert.equal((await api.service.ctx.db.query("SELECT 1 FROM onboarding_tasks WHERE brand = 'squat'")).length, 0);
  });

  it("anApprovedAccount_deploys_andDisapprovingItRefusesAgain", async () => {
    const session = await signInWithWallet(api.url, "ada@brand.example");
    assertError(await deployAs(cookieHeader(session), "adaone"), "FORBIDDEN");
    assert.equal(await api.service.ctx.console.users.approveDeploys("Ada@Brand.example"), true);
    assert.equal((await deployAs(cookieHeader(session), "adaone")).status, 202);
    assert.equal(await api.service.ctx.console.users.approveDeploys("ada@brand.example", false), true);
    assertError(await deployAs(cookieHeader(session), "adatwo"), "FORBIDDEN");
    assert.equal(await api.service.ctx.console.users.approveDeploys("nobody@brand.example"), false);
  });

  it("anAccountOfAnApprovedDomain_deploysWithoutPerAccountApproval_butALookalikeDomainDoesNot", async () => {
    const bo = await signInWithWallet(api.url, "bo@partner.example");
    assert.equal((await deployAs(cookieHeader(bo), "boone")).status, 202);
    const lookalike = await signInWithWallet(api.url, "eve@evilpartner.example");
    assertError(await deployAs(cookieHeader(lookalike), "eveone"), "FORBIDDEN");
  });

  it("attack_oneOwnerQueuesDeploysWithoutEnd_isRefused429QuotaAfterTheDailyQuota", async () => {
    const { key } = await api.service.ctx.keys.create("greedy", ["deploy"]);
    assert.equal((await deployAs(bearer(key), "greedya", { "idempotency-key": "a" })).status, 202);
    assert.equal((await deployAs(bearer(key), "greedyb")).status, 202);
    const res = await deployAs(bearer(key), "greedyc");
    assertError(res, "RATE_LIMITED");
    assert.equal(res.body.error.message, "deploy quota reached: 2 deploys per 24 hours; try again later");
    assert.deepEqual(res.body.error.details, { reason: "quota", limit: 2 });
    // A replay creates nothing, so it still answers with the first task.
    assert.equal((await deployAs(bearer(key), "greedya", { "idempotency-key": "a" })).status, 202);
    // Another owner has its own quota.
    const other = await api.service.ctx.keys.create("modest", ["deploy"]);
    assert.equal((await deployAs(bearer(other.key), "modesta")).status, 202);
  });
});
