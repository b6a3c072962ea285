import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, type DevNode, startNode } from "@points/testkit";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { failFirstAttempt, type Fault } from "./helpers/faultyStore.js";
import { assertOneSetEach, onboardingBody, recordedTxs, waitForTask } from "./helpers/onboarding.js";

const STAGES = ["validate", "release", "deploy", "verify", "register"] as const;

/**
 * Each case starts from the same empty chain (an EVM snapshot) and an empty database, so a
 * task deploys the release and the program; the clean run says how many transactions that
 * takes, and every interrupted-then-retried run must send exactly as many.
 */
describe("onboarding: a failure at each stage, then retry (a retry resumes, nothing is deployed twice)", () => {
  let node: DevNode;
  let snapshot: string;
  let cleanTxCount: number;

  before(async () => {
    node = await startNode();
    snapshot = await node.snapshot();
  });
  after(() => node?.stop());

  /** A fresh chain (back to the snapshot), a fresh API with `fault`, and a task for `brand`. */
  async function run(brand: string, fault?: Fault) {
    await node.revert(snapshot);
    snapshot = await node.snapshot();
    const api = await startApi(node.url, { WORKER_POLL_MS: "20" }, fault ? { storeFor: failFirstAttempt(fault) } : {});
    const auth = {
      ...(await bearerFor(api.service, "resume", DEPLOY_SCOPES)),
    };
    const { executor, brand: wallet } = actors(node.provider);
    const nonceBefore = await node.provider.getTransactionCount(executor.address);
    const res = await api.call("POST", "/api/v1/client-onboarding/deploy", onboardingBody(brand, wallet.address), auth);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const task = await waitForTask(api, res.body.data.taskId, auth);
    const sent = async () => (await node.provider.getTransactionCount(executor.address)) - nonceBefore;
    return { api, auth, task, sent };
  }

  /** The registry's rows of `brand`, read past its cache. */
  const registered = (api: TestApi, brand: string) =>
    api.service.ctx.db.query("SELECT id FROM programs WHERE brand = $1", [brand]);

  async function finish(api: TestApi, brand: string) {
    const pf = (await api.service.ctx.programs.get(brand)).programFactory!;
    await assertOneSetEach(node.provider, pf, [brand], 1);
  }

  it("cleanRun_succeeds_atTheFirstAttempt_andRecordsEveryTransactionItSent", async () => {
    const { api, task, sent } = await run("clean");
    try {
      assert.equal(task.status, "succeeded", JSON.stringify(task.stages));
      assert.equal(task.attempts, 1);
      cleanTxCount = await sent();
      // Six release contracts, the mock collateral, one deployProgram.
      assert.equal(cleanTxCount, 8);
      assert.equal(recordedTxs(task).length, cleanTxCount);
      await finish(api, "clean");
    } finally {
      await api.close();
    }
  });

  for (const [i, stage] of STAGES.entries()) {
    for (const when of ["before", "after"] as const) {
      it(`failure_${when}_${stage}_failsTheTaskNamingTheStage_andRetryResumesToOneSetOfContracts`, async () => {
        const brand = `${stage}${when}`;
        const { api, auth, task, sent } = await run(brand, `${stage}:${when}`);
        try {
          assert.equal(task.status, "failed", JSON.stringify(task.stages));
          const message = `injected fault ${stage}:${when}`;
          assert.deepEqual(task.error, { stage, code: "INTERNAL", message });
          const failed = task.stages[i];
          assert.deepEqual([failed.name, failed.status, failed.error], [stage, "failed", message]);
          // The registry is written only after the deployer returns: nothing is registered yet.
          assert.equal(task.program, null);
          assert.deepEqual(await registered(api, brand), []);
          for (const s of task.stages.slice(0, i)) assert.match(s.status, /^(done|skipped)$/, s.name);
          for (const s of task.stages.slice(i + 1)) assert.equal(s.status, "pending", s.name);
          const sentBefore = recordedTxs(task);
          assert.equal(sentBefore.length, await sent(), "every transaction sent is recorded");

          const retry = await api.call("POST", `/api/v1/client-onboarding/tasks/${task.taskId}/retry`, undefined, auth);
          assert.equal(retry.status, 202, JSON.stringify(retry.body));
          assert.equal(retry.body.data.status, "queued");
          const done = await waitForTask(api, task.taskId, auth);
          assert.equal(done.status, "succeeded", JSON.stringify(done.stages));
          assert.equal(done.attempts, 2);
          assert.equal(done.error, null);
          // Resumed, not restarted: what the first attempt sent is kept and not sent again.
          assert.equal(await sent(), cleanTxCount, "the executor sent exactly what one clean run sends");
          const after = recordedTxs(done);
          for (const hash of sentBefore) assert.ok(after.includes(hash), `${hash} still recorded`);
          assert.equal(after.length, cleanTxCount);
          assert.equal(done.program.addresses.factory, (await api.service.ctx.programs.get(brand)).factory);
          assert.equal((await registered(api, brand)).length, 1, "registered exactly once");
          await finish(api, brand);
        } finally {
          await api.close();
        }
      });
    }
  }
});
