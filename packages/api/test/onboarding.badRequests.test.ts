import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { routes } from "@points/schema";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { programRecord } from "./helpers/records.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const FEED = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const ORACLE = { feed: FEED, heartbeat: 86_400, lowerPeg: "980000000000000000", upperPeg: "1020000000000000000" };

type Body = ReturnType<typeof onboardingBody> & Record<string, unknown>;
const valid = (brand = "acme"): Body => onboardingBody(brand, DEPLOYER) as Body;

/** One wrong thing per case: [what, how the body is broken, the field the 400 must name]. */
const CASES: [string, (b: Body) => void, string][] = [
  ["brand with capitals", (b) => (b.brand = "Acme"), "body.brand"],
  ["brand with a symbol", (b) => (b.brand = "ac-me"), "body.brand"],
  ["brand too long (33)", (b) => (b.brand = "a".repeat(33)), "body.brand"],
  ["brand empty", (b) => (b.brand = ""), "body.brand"],
  ["brand missing", (b) => delete (b as Partial<Body>).brand, "body.brand"],
  ["organization missing", (b) => delete (b as Partial<Body>).organization, "body.organization"],
  ["organization.name empty", (b) => (b.organization.name = ""), "body.organization.name"],
  ["organization.name blank", (b) => (b.organization.name = "   "), "body.organization.name"],
  ["organization.website not a URL", (b) => (b.organization.website = "acme.example"), "body.organization.website"],
  ["organization.website ftp", (b) => (b.organization.website = "ftp://acme.example"), "body.organization.website"],
  [
    "organization.description missing",
    (b) => delete (b.organization as Partial<Body["organization"]>).description,
    "body.organization.description",
  ],
  ["chainId unknown", (b) => (b.chainId = 999), "body.chainId"],
  ["chainId a string", (b) => ((b as Record<string, unknown>).chainId = "31337"), "body.chainId"],
  ["chainId fractional", (b) => (b.chainId = 1.5), "body.chainId"],
  ["token missing", (b) => delete (b as Partial<Body>).token, "body.token"],
  ["token.name empty", (b) => (b.token.name = ""), "body.token.name"],
  ["token.symbol with a space", (b) => (b.token.symbol = "AC ME"), "body.token.symbol"],
  ["token.symbol too long (12)", (b) => (b.token.symbol = "ABCDEFGHIJKL"), "body.token.symbol"],
  [
    "token.description missing",
    (b) => delete (b.token as Partial<Body["token"]>).description,
    "body.token.description",
  ],
  ["token.logoUrl relative", (b) => (b.token.logoUrl = "/logo.png"), "body.token.logoUrl"],
  ["token.websiteUrl javascript:", (b) => (b.token.websiteUrl = "javascript:alert(1)"), "body.token.websiteUrl"],
  ["deployer not an address", (b) => (b.deployer = "0x1234"), "body.deployer"],
  ["deployer bad checksum", (b) => (b.deployer = DEPLOYER.replace("C", "c")), "body.deployer"],
  ["deployer missing", (b) => delete (b as Partial<Body>).deployer, "body.deployer"],
  ["collateral.asset not an address", (b) => (b.collateral = { asset: "usdc" }), "body.collateral.asset"],
  ["collateral.asset missing", (b) => (b.collateral = {}), "body.collateral.asset"],
  ["oracle.feed not an address", (b) => (b.oracle = { ...ORACLE, feed: "0xfeed" }), "body.oracle.feed"],
  ["oracle.heartbeat zero", (b) => (b.oracle = { ...ORACLE, heartbeat: 0 }), "body.oracle.heartbeat"],
  ["oracle.heartbeat over 30 days", (b) => (b.oracle = { ...ORACLE, heartbeat: 31 * 86_400 }), "body.oracle.heartbeat"],
  ["oracle.lowerPeg a decimal", (b) => (b.oracle = { ...ORACLE, lowerPeg: "0.98" }), "body.oracle.lowerPeg"],
  ["oracle.upperPeg missing", (b) => (b.oracle = { ...ORACLE, upperPeg: undefined }), "body.oracle.upperPeg"],
  ["an extra top-level field", (b) => (b.admin = DEPLOYER), "admin"],
  ["an extra organization field", (b) => ((b.organization as Record<string, unknown>).logo = "x"), "logo"],
  ["an extra token field", (b) => ((b.token as Record<string, unknown>).decimals = 18), "decimals"],
];

describe("onboarding: bad requests (each field wrong in turn -> 400 naming it)", () => {
  let api: TestApi;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;

  before(async () => {
    // No chain is needed to refuse a request: the RPC is a closed port, no worker runs.
    api = await startApi("http://127.0.0.1:9", { WORKER: "off", RPC_TIMEOUT_MS: "500" });
    auth = {
      ...(await bearerFor(api.service, "brand a", DEPLOY_SCOPES)),
    };
    otherAuth = {
      ...(await bearerFor(api.service, "brand b", DEPLOY_SCOPES)),
    };
  });
  after(() => api?.close());

  const deploy = (body: unknown, headers = auth) => api.call("POST", "/api/v1/client-onboarding/deploy", body, headers);

  for (const [what, breakIt, field] of CASES) {
    it(`deploy_answers400_namingTheField_when_${what.replace(/\W+/g, "_")}`, async () => {
      const body = structuredClone(valid());
      breakIt(body);
      const res = await deploy(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, "INVALID_INPUT");
      assert.match(res.body.error.message, new RegExp(field.replace(/\./g, "\\.")), res.body.error.message);
    });
  }

  it("deploy_answers422_namingTheField_whenLowerPegIsAboveUpperPeg_asTheOracleWouldRevert", async () => {
    const res = await deploy({
      ...valid(),
      oracle: { ...ORACLE, lowerPeg: ORACLE.upperPeg, upperPeg: ORACLE.lowerPeg },
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "WOULD_REVERT");
    assert.equal(res.body.error.message, "body.oracle.lowerPeg: must not exceed upperPeg");
    assert.deepEqual(res.body.error.details.issues, [
      { field: "body.oracle.lowerPeg", message: "must not exceed upperPeg" },
    ]);
  });

  it("deploy_answers400_forAnUnknownChain_listingTheKnownOnes", async () => {
    const res = await deploy({ ...valid(), chainId: 999 });
    assert.equal(res.status, 400);
    assert.match(res.body.error.message, /^body\.chainId: chain 999 is not configured \(known: 31337\)/);
    assert.deepEqual(res.body.error.details.issues, [{ field: "body.chainId", message: "is not a configured chain" }]);
  });

  it("deploy_createsNoTask_forARefusedRequest", async () => {
    const res = await api.call("GET", "/api/v1/client-onboarding/tasks", undefined, auth);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
  });

  it("everyOnboardingRoute_answers401_withoutAnApiKey", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, path, body] of [
      ["POST", "/api/v1/client-onboarding/deploy", valid("nokey")],
      ["GET", `/v1/client-onboarding/tasks/${id}`],
      ["GET", `/api/v1/client-onboarding/tasks/${id}`],
      ["GET", "/api/v1/client-onboarding/tasks"],
      ["POST", `/api/v1/client-onboarding/tasks/${id}/retry`],
    ] as const) {
      const res = await api.call(method, path, body, {});
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.error.code, "UNAUTHORIZED");
    }
  });

  it("deploy_answers409_forTheBrandOfARegisteredProgram", async () => {
    await api.service.ctx.programs.insert(programRecord("taken"));
    const res = await deploy(valid("taken"));
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "CONFLICT");
    assert.match(res.body.error.message, /brand taken already has a program/);
  });

  it("deploy_answers409_forTheBrandOfAQueuedTask_evenFromAnotherKey", async () => {
    const first = await deploy(valid("queued"));
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(routes.onboardingDeploy.response.safeParse(first.body).success, true);
    assert.equal(first.body.data.status, "queued");
    const again = await deploy(valid("queued"), otherAuth);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "CONFLICT");
    assert.equal(again.body.error.message, "brand queued is already taken");
    assert.equal(again.body.error.details, undefined);
    // Its owner is told which task holds it.
    const mine = await deploy(valid("queued"));
    assert.equal(mine.status, 409);
    assert.deepEqual(mine.body.error.details, { taskId: first.body.data.taskId, status: "queued" });
  });

  it("attack_aStrangerProbesABrand_andThe409LeaksTheOwnersTaskIdAndStatus_nowSaysOnlyTaken", async () => {
    const first = await deploy(valid("probed"));
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const probe = await deploy(valid("probed"), otherAuth);
    assert.equal(probe.status, 409);
    assert.deepEqual(probe.body, {
      success: false,
      error: { code: "CONFLICT", message: "brand probed is already taken" },
    });
  });

  it("deploy_answers409_forTheBrandOfAFailedTask_pointingAtRetry", async () => {
    const first = await deploy(valid("failed"));
    await api.service.ctx.db.query("UPDATE onboarding_tasks SET status = 'failed' WHERE id = $1", [
      first.body.data.taskId,
    ]);
    const again = await deploy(valid("failed"));
    assert.equal(again.status, 409);
    assert.match(again.body.error.message, /\(failed\): retry it instead/);
    assert.equal(again.body.error.details.taskId, first.body.data.taskId);
  });

  describe("Idempotency-Key", () => {
    it("deploy_returnsTheSameTask_forTheSameKeyAndBody", async () => {
      const headers = { ...auth, "idempotency-key": "order-1" };
      const first = await deploy(valid("idem"), headers);
      const second = await deploy(valid("idem"), headers);
      assert.equal(first.status, 202);
      assert.equal(second.status, 202, JSON.stringify(second.body));
      assert.equal(second.body.data.taskId, first.body.data.taskId);
      // Key order in the body does not matter: the body is compared canonically.
      const { brand, ...rest } = valid("idem");
      const third = await deploy({ ...rest, brand }, headers);
      assert.equal(third.body.data.taskId, first.body.data.taskId);
    });

    it("deploy_answers409_forTheSameKeyWithAnotherBody", async () => {
      const headers = { ...auth, "idempotency-key": "order-2" };
      assert.equal((await deploy(valid("idemone"), headers)).status, 202);
      const res = await deploy(valid("idemtwo"), headers);
      assert.equal(res.status, 409);
      assert.equal(res.body.error.code, "CONFLICT");
      assert.match(res.body.error.message, /Idempotency-Key/);
    });

    it("deploy_scopesKeys_toTheCaller", async () => {
      const headers = { "idempotency-key": "order-3" };
      const mine = await deploy(valid("scopeone"), { ...auth, ...headers });
      const theirs = await deploy(valid("scopetwo"), { ...otherAuth, ...headers });
      assert.equal(theirs.status, 202);
      assert.notEqual(theirs.body.data.taskId, mine.body.data.taskId);
    });

    it("deploy_answers400_forAnUnprintableKey", async () => {
      const res = await deploy(valid("badkey"), { ...auth, "idempotency-key": "x".repeat(201) });
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /Idempotency-Key/);
    });
  });

  describe("task routes", () => {
    it("getTask_answers404_forAnUnknownId_and400_forAMalformedOne", async () => {
      const unknown = await api.call(
        "GET",
        "/v1/client-onboarding/tasks/00000000-0000-4000-8000-000000000000",
        undefined,
        auth,
      );
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "NOT_FOUND");
      const malformed = await api.call("GET", "/v1/client-onboarding/tasks/nope", undefined, auth);
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.error.message, /params\.taskId/);
    });

    it("taskOfAnotherKey_is404_forGetAndRetry", async () => {
      const { taskId } = (await deploy(valid("private"))).body.data;
      for (const path of [`/v1/client-onboarding/tasks/${taskId}`, `/api/v1/client-onboarding/tasks/${taskId}`]) {
        assert.equal((await api.call("GET", path, undefined, otherAuth)).status, 404, path);
      }
      const retry = await api.call("POST", `/api/v1/client-onboarding/tasks/${taskId}/retry`, undefined, otherAuth);
      assert.equal(retry.status, 404);
    });

    it("retry_answers409_forATaskThatHasNotFailed", async () => {
      const { taskId } = (await deploy(valid("notfailed"))).body.data;
      const res = await api.call("POST", `/api/v1/client-onboarding/tasks/${taskId}/retry`, undefined, auth);
      assert.equal(res.status, 409);
      assert.match(res.body.error.message, /is queued: only a failed task can be retried/);
    });

    it("listTasks_returnsOnlyTheCallersTasks_newestFirst", async () => {
      const mine = (await api.call("GET", "/api/v1/client-onboarding/tasks", undefined, auth)).body.data;
      const theirs = (await api.call("GET", "/api/v1/client-onboarding/tasks", undefined, otherAuth)).body.data;
      assert.equal(routes.onboardingTasks.response.safeParse({ success: true, data: mine }).success, true);
      assert.deepEqual(
        theirs.map((t: { brand: string }) => t.brand),
        ["scopetwo"],
      );
      assert.ok(mine.length > 5);
      assert.ok(!mine.some((t: { brand: string }) => t.brand === "scopetwo"));
      const created = mine.map((t: { createdAt: string }) => t.createdAt);
      assert.deepEqual(created, [...created].sort().reverse());
      const other = await api.call("GET", "/api/v1/client-onboarding/tasks?chainId=1", undefined, auth);
      assert.deepEqual(other.body.data, []);
    });

    it("bothTaskPaths_answerTheSameView", async () => {
      const { taskId } = (await deploy(valid("twopaths"))).body.data;
      const v1 = await api.call("GET", `/v1/client-onboarding/tasks/${taskId}`, undefined, auth);
      const apiV1 = await api.call("GET", `/api/v1/client-onboarding/tasks/${taskId}`, undefined, auth);
      assert.equal(v1.status, 200);
      assert.deepEqual(apiV1.body, v1.body);
      assert.equal(v1.body.data.status, "queued");
      assert.deepEqual(
        v1.body.data.stages.map((s: { status: string }) => s.status),
        ["pending", "pending", "pending", "pending", "pending"],
      );
    });
  });
});
