import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startNode, type DevNode } from "@points/testkit";
import { loadConfig } from "../src/index.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { holdings, onboardingBody, waitForTask } from "./helpers/onboarding.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const DEPLOY = "/api/v1/client-onboarding/deploy";

describe("onboarding: every executor transaction has the operator's gas cap", () => {
  let node: DevNode;
  let api: TestApi;
  let owner: Record<string, string>;

  before(async () => {
    node = await startNode();
    api = await startApi(node.url, { EXECUTOR_MAX_GAS_PER_TX: "100000", WORKER_POLL_MS: "50" });
    owner = { authorization: `Bearer ${(await api.service.ctx.keys.create("owner", ["deploy"])).key}` };
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("attack_aDeployOverTheGasCap_failsWithNothingSent_andItsBrandIsFreeAtOnce", async () => {
    const executor = node.wallets[0].address;
    const before = await holdings(node.provider, executor);
    const res = await api.call("POST", DEPLOY, onboardingBody("heavy", DEPLOYER), owner);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const task = await waitForTask(api, res.body.data.taskId, owner);
    assert.equal(task.status, "failed");
    assert.equal(task.error.code, "GAS_CAP");
    assert.match(task.error.message, /over the cap of 100000; nothing was sent/);
    assert.deepEqual(await holdings(node.provider, executor), before);
    const free = await api.call("GET", "/console/v1/brands/heavy/available?chainId=31337");
    assert.deepEqual(free.body.data, { brand: "heavy", available: true });
  });

  it("theCap_isValidatedAtBoot", () => {
    assert.throws(
      () => loadConfig({ EXECUTOR_MAX_GAS_PER_TX: "lots" }),
      /EXECUTOR_MAX_GAS_PER_TX: must be a whole number/,
    );
    assert.throws(
      () => loadConfig({ EXECUTOR_MAX_GAS_PER_TX: "20999" }),
      /EXECUTOR_MAX_GAS_PER_TX: must be at least 21000/,
    );
    assert.equal(loadConfig({}).deploy.maxGasPerTx, 12_000_000);
  });
});
