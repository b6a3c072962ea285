import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const DEPLOY = "/api/v1/client-onboarding/deploy";
const WINDOW = 60;
const available = (brand: string, chainId?: number) =>
  `/console/v1/brands/${brand}/available${chainId === undefined ? "" : `?chainId=${chainId}`}`;
const onMainnet = (brand: string) => onboardingBody(brand, DEPLOYER, { chainId: 8453, collateral: { asset: USDC } });

describe("onboarding: a brand is reserved per chain, and a failed task gives it back", () => {
  let api: TestApi;
  let owner: Record<string, string>;
  let stranger: Record<string, string>;
  const fail = (id: string, secondsAgo = 0) =>
    api.service.ctx.db.query(
      "UPDATE onboarding_tasks SET status = 'failed', updated_at = now() - make_interval(secs => $2) WHERE id = $1",
      [id, secondsAgo],
    );

  before(async () => {
    // No worker and no reachable RPC: these rules are decided before anything is sent.
    api = await startApi("http://127.0.0.1:9", {
      WORKER: "off",
      RPC_TIMEOUT_MS: "500",
      EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
      BRAND_RETRY_WINDOW_SECONDS: String(WINDOW),
      CHAINS: JSON.stringify([
        { chainId: 31337, name: "Hardhat", rpcUrl: "http://127.0.0.1:9" },
        { chainId: 8453, name: "Base", rpcUrl: "http://127.0.0.1:9", testnet: false },
      ]),
    });
    const bearer = async (name: string) => ({
      authorization: `Bearer ${(await api.service.ctx.keys.create(name, ["deploy"])).key}`,
    });
    owner = await bearer("owner");
    stranger = await bearer("stranger");
    // Base is not a dev chain: its collateral must be on the operator's list (docs/deployment.md).
    const operator = { authorization: `Bearer ${(await api.service.ctx.keys.create("operator", ["admin"])).key}` };
    const listed = await api.call(
      "PUT",
      `/api/v1/operator/chains/8453/assets/collateral/${USDC}`,
      { label: "USDC" },
      operator,
    );
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
  });
  after(() => api?.close());

  it("attack_aBrandOnATestnet_blockedTheSameBrandOnMainnet_nowBothAreAccepted", async () => {
    const test = await api.call("POST", DEPLOY, onboardingBody("acme", DEPLOYER), owner);
    assert.equal(test.status, 202, JSON.stringify(test.body));
    const main = await api.call("POST", DEPLOY, onMainnet("acme"), owner);
    assert.equal(main.status, 202, JSON.stringify(main.body));
    assert.equal(main.body.data.status, "awaiting_approval");
    // Per chain, still one task per brand.
    const again = await api.call("POST", DEPLOY, onboardingBody("acme", DEPLOYER), stranger);
    assert.equal(again.status, 409);
    assert.deepEqual(again.body.error, { code: "CONFLICT", message: "brand acme is already taken" });
  });

  it("brandAvailable_answersPerChain_andForEveryChainWithoutOne", async () => {
    await api.call("POST", DEPLOY, onboardingBody("solo", DEPLOYER), owner);
    assert.equal((await api.call("GET", available("solo", 31337))).body.data.available, false);
    assert.deepEqual((await api.call("GET", available("solo", 8453))).body.data, { brand: "solo", available: true });
    assert.equal((await api.call("GET", available("solo"))).body.data.reason, "task");
    const unknown = await api.call("GET", available("solo", 5));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, "INVALID_INPUT");
    assert.deepEqual(unknown.body.error.details.issues, [
      { field: "query.chainId", message: "is not a configured chain (see GET /console/v1/chains)" },
    ]);
  });

  it("attack_aFailedTaskSquatsABrandForever_nowItIsReleasedAfterTheRetryWindow", async () => {
    const squat = await api.call("POST", DEPLOY, onboardingBody("squat", DEPLOYER), stranger);
    assert.equal(squat.status, 202);
    // Inside the window the brand stays its owner's to retry.
    await fail(squat.body.data.taskId, WINDOW - 10);
    assert.equal((await api.call("POST", DEPLOY, onboardingBody("squat", DEPLOYER), owner)).status, 409);
    assert.equal((await api.call("GET", available("squat", 31337))).body.data.available, false);
    // Past it, the brand is free to anyone and the stale task is gone.
    await fail(squat.body.data.taskId, WINDOW + 1);
    assert.equal((await api.call("GET", available("squat", 31337))).body.data.available, true);
    const taken = await api.call("POST", DEPLOY, onboardingBody("squat", DEPLOYER), owner);
    assert.equal(taken.status, 202, JSON.stringify(taken.body));
    assert.equal(await api.service.ctx.tasks.get(squat.body.data.taskId), undefined);
  });

  it("aQueuedTask_keepsItsBrand_pastTheRetryWindow", async () => {
    const held = await api.call("POST", DEPLOY, onboardingBody("steady", DEPLOYER), owner);
    await api.service.ctx.db.query(
      "UPDATE onboarding_tasks SET updated_at = now() - make_interval(secs => $2) WHERE id = $1",
      [held.body.data.taskId, WINDOW + 1],
    );
    assert.equal((await api.call("POST", DEPLOY, onboardingBody("steady", DEPLOYER), stranger)).status, 409);
  });

  it("operatorRelease_onOneChain_leavesTheOtherChainsReservation", async () => {
    const a = await api.call("POST", DEPLOY, onboardingBody("twin", DEPLOYER), owner);
    const b = await api.call("POST", DEPLOY, onMainnet("twin"), owner);
    assert.deepEqual(await api.service.ctx.tasks.releaseBrand("twin", { chainId: "8453" }), [b.body.data.taskId]);
    assert.equal((await api.service.ctx.tasks.get(a.body.data.taskId))?.status, "queued");
    assert.equal((await api.call("GET", available("twin", 8453))).body.data.available, true);
  });

  it("registry_takesTheSameBrandOnTwoChains_underTwoIds_butNotTwiceOnOneChain", async () => {
    const program = (chainId: string, n: string) => ({
      chainId,
      brand: "dual",
      factory: `0x${n.repeat(40)}`,
      points: `0x${n.repeat(40)}`,
      collateralVault: `0x${n.repeat(40)}`,
      pspVault: `0x${n.repeat(40)}`,
      oracle: null,
      programFactory: null,
      deployTx: null,
      blockNumber: null,
    });
    const first = await api.service.ctx.programs.insert(program("31337", "1"));
    const second = await api.service.ctx.programs.insert(program("8453", "2"));
    assert.deepEqual([first.id, second.id], ["dual", "dual-8453"]);
    assert.equal((await api.service.ctx.programs.findByBrand("8453", "dual"))?.id, "dual-8453");
    await assert.rejects(api.service.ctx.programs.insert(program("8453", "3")), { code: "CONFLICT" });
    // A registered brand is taken on its chain only.
    assert.equal((await api.call("GET", available("dual", 8453))).body.data.reason, "program");
    assert.equal((await api.call("POST", DEPLOY, onMainnet("dual"), owner)).status, 409);
  });
});
