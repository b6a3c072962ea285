import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startNode, type DevNode } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { holdings, onboardingBody } from "./helpers/onboarding.js";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import { signIn, withSession } from "./helpers/console.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const HOSTILE = "0x000000000000000000000000000000000000bEEF";
const TRUSTED = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const FEED = "0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6";
const CHAIN = 8453;
const DEPLOY = "/api/v1/client-onboarding/deploy";
const assetPath = (kind: string, address: string, chainId = CHAIN) =>
  `/api/v1/operator/chains/${chainId}/assets/${kind}/${address}`;
const oracle = { feed: FEED, heartbeat: 3600, lowerPeg: "990000000000000000", upperPeg: "1010000000000000000" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("onboarding: the executor never pays for a hostile token", () => {
  let node: DevNode;
  let proxy: RpcProxy;
  let api: TestApi;
  let tenant: Record<string, string>;
  let operator: Record<string, string>;
  let executor: string;
  const executorHoldings = () => holdings(node.provider, executor);

  before(async () => {
    node = await startNode();
    // A non-dev chain id, a testnet (no operator approval in the way), served by the dev node:
    // whatever the executor would send must go through this proxy.
    proxy = await startRpcProxy(node.url, { chainId: CHAIN });
    executor = node.wallets[0].address;
    api = await startApi(node.url, {
      EXECUTOR_PRIVATE_KEY: `0x${"ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}`,
      WORKER_POLL_MS: "50",
      CHAINS: JSON.stringify([{ chainId: CHAIN, name: "Base Sepolia", rpcUrl: proxy.url, testnet: true }]),
    });
    const bearer = async (name: string, scopes: ("deploy" | "admin")[]) => ({
      authorization: `Bearer ${(await api.service.ctx.keys.create(name, scopes)).key}`,
    });
    tenant = await bearer("tenant", ["deploy"]);
    operator = await bearer("operator", ["admin"]);
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await node?.stop();
  });

  it("attack_aDeployNamingAnUnlistedCollateral_isRefusedBeforeAnyGasQuotaOrBrandIsSpent", async () => {
    const before = await executorHoldings();
    proxy.reset();
    const body = onboardingBody("hostile", DEPLOYER, { chainId: CHAIN, collateral: { asset: HOSTILE } });
    const res = await api.call("POST", DEPLOY, body, tenant);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "INVALID_INPUT");
    assert.deepEqual(res.body.error.details.issues, [
      { field: "body.collateral.asset", message: `is not on the operator's collateral list for chain ${CHAIN}` },
    ]);
    // Give a worker every chance to pick something up: nothing was queued, nothing is sent.
    api.service.ctx.pokeWorker();
    await sleep(1500);
    assert.deepEqual(await executorHoldings(), before);
    assert.ok(!proxy.methods().includes("eth_sendRawTransaction"), proxy.methods().join(","));
    assert.equal((await api.service.ctx.db.query("SELECT 1 FROM onboarding_tasks")).length, 0, "no task, no quota");
    const free = await api.call("GET", `/console/v1/brands/hostile/available?chainId=${CHAIN}`);
    assert.deepEqual(free.body.data, { brand: "hostile", available: true });
  });

  it("attack_aDeployNamingAnUnlistedOracleFeed_isRefused_evenWithListedCollateral", async () => {
    assert.equal((await api.call("PUT", assetPath("collateral", TRUSTED), { label: "USDC" }, operator)).status, 200);
    const body = onboardingBody("feedless", DEPLOYER, { chainId: CHAIN, collateral: { asset: TRUSTED }, oracle });
    const res = await api.call("POST", DEPLOY, body, tenant);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details.issues, [
      { field: "body.oracle.feed", message: `is not on the operator's feed list for chain ${CHAIN}` },
    ]);
  });

  it("assetsTheOperatorListed_areAccepted_andListedBackChecksummed", async () => {
    assert.equal(
      (await api.call("PUT", assetPath("feed", FEED.toLowerCase()), { label: "USDC/USD" }, operator)).status,
      200,
    );
    const list = await api.call("GET", `/api/v1/operator/chains/${CHAIN}/assets`, undefined, operator);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((a: { kind: string; address: string; label: string }) => [a.kind, a.address, a.label]),
      [
        ["collateral", TRUSTED, "USDC"],
        ["feed", FEED, "USDC/USD"],
      ],
    );
    const body = onboardingBody("trusted", DEPLOYER, { chainId: CHAIN, collateral: { asset: TRUSTED }, oracle });
    const res = await api.call("POST", DEPLOY, body, tenant);
    assert.equal(res.status, 202, JSON.stringify(res.body));
  });

  it("removingAnAsset_refusesTheNextDeploy_andRemovingItAgainIs404", async () => {
    assert.deepEqual((await api.call("DELETE", assetPath("feed", FEED), undefined, operator)).body.data, {
      removed: true,
    });
    assert.equal((await api.call("DELETE", assetPath("feed", FEED), undefined, operator)).status, 404);
    const body = onboardingBody("nofeed", DEPLOYER, { chainId: CHAIN, collateral: { asset: TRUSTED }, oracle });
    assert.equal((await api.call("POST", DEPLOY, body, tenant)).status, 400);
  });

  it("attack_aTenantListsItsOwnHostileToken_isRefused403_withADeployKeyOrAConsoleSession", async () => {
    const byKey = await api.call("PUT", assetPath("collateral", HOSTILE), { label: "mine" }, tenant);
    assert.equal(byKey.status, 403);
    assert.equal(byKey.body.error.code, "FORBIDDEN");
    assert.deepEqual(byKey.body.error.details, { reason: "scope", needed: "admin", granted: ["deploy"] });
    const session = await signIn(api.url, "tenant@example.com");
    await api.service.ctx.console.users.approveDeploys("tenant@example.com");
    const bySession = await withSession(api.url, session, "PUT", assetPath("collateral", HOSTILE), { label: "mine" });
    assert.equal(bySession.status, 403);
    assert.deepEqual(bySession.body.error.details, { reason: "scope", needed: "admin" });
    assert.equal((await api.call("GET", `/api/v1/operator/chains/${CHAIN}/assets`)).status, 401);
    assert.equal(
      (await api.service.ctx.db.query("SELECT 1 FROM chain_assets WHERE address = $1", [HOSTILE.toLowerCase()])).length,
      0,
    );
  });

  it("anUnconfiguredChain_is400", async () => {
    const res = await api.call("GET", "/api/v1/operator/chains/5/assets", undefined, operator);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details.issues, [
      { field: "params.chainId", message: "is not a configured chain (see GET /console/v1/chains)" },
    ]);
  });
});
