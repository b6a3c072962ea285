import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";

const DEPLOYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const DEPLOY = "/api/v1/client-onboarding/deploy";
const cancelPath = (id: string) => `/api/v1/client-onboarding/tasks/${id}/cancel`;

describe("onboarding: a brand held by a task that will not run can be released", () => {
  let api: TestApi;
  let owner: Record<string, string>;
  let stranger: Record<string, string>;
  const fail = (id: string) =>
    api.service.ctx.db.query("UPDATE onboarding_tasks SET status = 'failed' WHERE id = $1", [id]);

  before(async () => {
    api = await startApi("http://127.0.0.1:9", { WORKER: "off", RPC_TIMEOUT_MS: "500" });
    const bearer = async (name: string) => ({
      ...(await bearerFor(api.service, name, ["deploy"])),
    });
    owner = await bearer("owner");
    stranger = await bearer("stranger");
  });
  after(() => api?.close());

  it("attack_aFailedTaskHoldsABrandForever_nowItsOwnerCancelsAndTheBrandIsFreeAtOnce", async () => {
    const first = await api.call("POST", DEPLOY, onboardingBody("held", DEPLOYER), owner);
    assert.equal(first.status, 202);
    await fail(first.body.data.taskId);
    assert.equal((await api.call("POST", DEPLOY, onboardingBody("held", DEPLOYER), stranger)).status, 409);

    // Nobody else can cancel it: it is not theirs to see.
    const theirs = await api.call("POST", cancelPath(first.body.data.taskId), undefined, stranger);
    assert.equal(theirs.status, 404);
    const cancelled = await api.call("POST", cancelPath(first.body.data.taskId), undefined, owner);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.deepEqual(cancelled.body.data, { taskId: first.body.data.taskId, brand: "held", released: true });
    assert.equal((await api.call("POST", DEPLOY, onboardingBody("held", DEPLOYER), stranger)).status, 202);
  });

  it("cancel_aQueuedTask_isRefused409_andKeepsItsBrand", async () => {
    const first = await api.call("POST", DEPLOY, onboardingBody("busy", DEPLOYER), owner);
    const res = await api.call("POST", cancelPath(first.body.data.taskId), undefined, owner);
    assert.equal(res.status, 409);
    assert.equal(
      res.body.error.message,
      `task ${first.body.data.taskId} is queued: only a failed or unapproved task can be cancelled`,
    );
    assert.equal((await api.service.ctx.tasks.get(first.body.data.taskId))?.status, "queued");
  });

  it("attack_aStrangersFailedTaskSquatsABrand_nowTheOperatorReleasesIt", async () => {
    const squat = await api.call("POST", DEPLOY, onboardingBody("famous", DEPLOYER), stranger);
    await fail(squat.body.data.taskId);
    assert.deepEqual(await api.service.ctx.tasks.releaseBrand("famous"), [squat.body.data.taskId]);
    assert.deepEqual(await api.service.ctx.tasks.releaseBrand("famous"), []);
    assert.equal((await api.call("POST", DEPLOY, onboardingBody("famous", DEPLOYER), owner)).status, 202);
  });
});
