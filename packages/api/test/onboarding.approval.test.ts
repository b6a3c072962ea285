import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { assertError, send } from "./helpers/http.js";
import { withSession } from "./helpers/console.js";
import { signInWithWallet } from "./helpers/siwe.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const approvePath = (id: string) => `/api/v1/operator/onboarding/tasks/${id}/approve`;

describe("onboarding: on a chain not marked testnet every deploy waits for the operator", () => {
  let api: TestApi;
  let tenant: Record<string, string>;
  let operator: Record<string, string>;
  const post = (path: string, headers: Record<string, string>, body?: unknown) =>
    send(api.url, "POST", path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    });

  before(async () => {
    // No worker and no reachable RPC: the point is that nothing is queued for one before approval.
    api = await startApi("http://127.0.0.1:9", {
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      // A chain not marked testnet never gets the public development key.
      EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
      CHAINS: JSON.stringify([
        { chainId: 31337, name: "Hardhat", rpcUrl: "http://127.0.0.1:9" },
        { chainId: 8453, name: "Base", rpcUrl: "http://127.0.0.1:9", testnet: false },
      ]),
    });
    const bearer = async (name: string, scopes: ("deploy" | "admin")[]) => ({
      ...(await bearerFor(api.service, name, scopes)),
    });
    tenant = await bearer("tenant", ["deploy"]);
    operator = await bearer("operator", ["admin"]);
    // The collateral is one the operator trusts on this chain (the hostile case: onboarding.hostileAssets).
    const listed = await send(api.url, "PUT", `/api/v1/operator/chains/8453/assets/collateral/${USDC}`, {
      body: JSON.stringify({ label: "USDC" }),
      headers: { "content-type": "application/json", ...operator },
    });
    assert.equal(listed.status, 200, listed.text);
  });
  after(() => api?.close());

  it("attack_aTenantDeploysOnMainnet_andTheExecutorPaysAtOnce_nowWaitsInAwaitingApproval", async () => {
    const body = onboardingBody("mainbrand", DEPLOYER, { chainId: 8453, collateral: { asset: USDC } });
    const res = await post("/api/v1/client-onboarding/deploy", tenant, body);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.data.status, "awaiting_approval");
    // No worker can claim it: nothing is sent with the executor's key.
    assert.equal(await api.service.ctx.tasks.claim("8453", "worker-1", 10_000), undefined);

    // The tenant cannot approve its own deploy: approving needs the admin scope.
    const selfApproved = await post(approvePath(res.body.data.taskId), tenant);
    assertError(selfApproved, "FORBIDDEN");
    assert.deepEqual(selfApproved.body.error.details, { reason: "scope", needed: "admin", granted: ["deploy"] });

    const approved = await post(approvePath(res.body.data.taskId), operator);
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.data.status, "queued");
    assert.equal((await api.service.ctx.tasks.claim("8453", "worker-1", 10_000))?.id, res.body.data.taskId);

    const again = await post(approvePath(res.body.data.taskId), operator);
    assertError(again, "CONFLICT");
    assert.equal(
      again.body.error.message,
      `task ${res.body.data.taskId} is running: only a task awaiting approval can be approved`,
    );
    assertError(await post(approvePath("00000000-0000-4000-8000-000000000000"), operator), "NOT_FOUND");
  });

  it("attack_aConsoleAccountApprovesItsOwnMainnetDeploy_isRefused403", async () => {
    const email = "tenant@approved.example";
    const session = await signInWithWallet(api.url, email);
    assert.equal(await api.service.ctx.console.users.approveDeploys(email), true);
    const body = onboardingBody("selfmade", DEPLOYER, { chainId: 8453, collateral: { asset: USDC } });
    const res = await withSession(api.url, session, "POST", "/api/v1/client-onboarding/deploy", body);
    assert.equal(res.status, 202, res.text);
    const approve = await withSession(api.url, session, "POST", approvePath(res.body.data.taskId));
    assertError(approve, "FORBIDDEN");
    assert.deepEqual(approve.body.error.details, { reason: "scope", needed: "admin" });
    assert.equal((await api.service.ctx.tasks.get(res.body.data.taskId))?.status, "awaiting_approval");
  });

  it("aDeployOnATestnet_isQueuedAtOnce", async () => {
    const res = await post("/api/v1/client-onboarding/deploy", tenant, onboardingBody("testbrand", DEPLOYER));
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.data.status, "queued");
  });
});
