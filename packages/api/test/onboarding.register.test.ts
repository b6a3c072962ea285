import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { StageContext, StageName } from "@points/deployer";
import { ProgramRegistry } from "../src/index.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import { actors, type DevNode, startNode } from "@points/testkit";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { assertOneSetEach, onboardingBody, recordedTxs, waitForTask } from "./helpers/onboarding.js";
import { programRecord } from "./helpers/records.js";

/**
 * Takes the brand in the registry (with another factory) as the deployer's register stage
 * starts, so the registry write that follows deployProgram is refused: the program is on chain
 * and in the deployer's manifest, but not registered.
 */
class SquattingStore extends DbManifestStore {
  async stageStarted(ctx: StageContext, stage: StageName): Promise<void> {
    await super.stageStarted(ctx, stage);
    if (stage === "register") await new ProgramRegistry(this.database).insert(programRecord(ctx.brand!));
  }

  constructor(readonly database: ConstructorParameters<typeof DbManifestStore>[0]) {
    super(database);
  }
}

describe("onboarding: the registry write after the deployer returns", () => {
  let node: DevNode;
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    node = await startNode();
    api = await startApi(
      node.url,
      { WORKER_POLL_MS: "20", DB_CACHE_TTL_MS: "0" },
      { storeFor: (db, task) => (task.attempts === 1 ? new SquattingStore(db) : new DbManifestStore(db)) },
    );
    auth = {
      ...(await bearerFor(api.service, "register", DEPLOY_SCOPES)),
    };
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const registered = (brand: string) =>
    api.service.ctx.db.query<{ factory: string }>("SELECT factory FROM programs WHERE brand = $1", [brand]);

  it("registryRefusal_failsTheRegisterStage_withConflict_andRetryRegistersTheDeployedProgramOnce", async () => {
    const { executor, brand: wallet } = actors(node.provider);
    const nonceBefore = await node.provider.getTransactionCount(executor.address);
    const res = await api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("squat", wallet.address),
      auth,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const task = await waitForTask(api, res.body.data.taskId, auth);

    const message = "brand squat is registered with another factory";
    assert.equal(task.status, "failed", JSON.stringify(task.stages));
    assert.deepEqual(task.error, { stage: "register", code: "CONFLICT", message });
    assert.deepEqual(
      task.stages.map((s: { status: string }) => s.status),
      ["done", "done", "done", "done", "failed"],
    );
    assert.equal(task.stages[4].error, message);
    assert.equal(task.program, null);
    const sent = await node.provider.getTransactionCount(executor.address);
    assert.equal(recordedTxs(task).length, sent - nonceBefore, "every transaction sent is recorded");

    await api.service.ctx.db.query("DELETE FROM programs WHERE brand = 'squat'");
    const retry = await api.call("POST", `/api/v1/client-onboarding/tasks/${task.taskId}/retry`, undefined, auth);
    assert.equal(retry.status, 202, JSON.stringify(retry.body));
    const done = await waitForTask(api, task.taskId, auth);
    assert.equal(done.status, "succeeded", JSON.stringify(done.stages));
    assert.equal(done.attempts, 2);
    assert.equal(done.error, null);
    // Validation and verification always run; nothing is sent or saved twice.
    assert.deepEqual(
      done.stages.map((s: { status: string }) => s.status),
      ["done", "skipped", "skipped", "done", "skipped"],
    );
    assert.equal(await node.provider.getTransactionCount(executor.address), sent, "the retry sent nothing");
    assert.deepEqual(await registered("squat"), [{ factory: done.program.addresses.factory }]);
    await assertOneSetEach(node.provider, (await api.service.ctx.programs.get("squat")).programFactory!, ["squat"], 1);
  });
});
