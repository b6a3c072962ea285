import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, type DevNode, startNode } from "@points/testkit";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startWorkerProcess, type WorkerProcess } from "./helpers/workerProcess.js";
import { assertOneSetEach, onboardingBody, recordedTxs, waitForTask } from "./helpers/onboarding.js";

const LEASE_MS = 1500;

/**
 * A worker process killed (SIGKILL: no cleanup) in the middle of the deploy stage: its lease
 * expires, a new worker process takes the task over and resumes it through the deployer.
 * The node mines a block every 500 ms so that stages last long enough to be interrupted.
 */
describe("onboarding: a worker process killed mid-task (taken over after the lease, never twice)", () => {
  let node: DevNode;
  let db: ScratchDatabase;
  let api: TestApi;
  const workers: WorkerProcess[] = [];

  before(async () => {
    node = await startNode();
    await node.provider.send("evm_setAutomine", [false]);
    await node.provider.send("evm_setIntervalMining", [500]);
    db = await createScratchDatabase();
    api = await startApi(node.url, { DATABASE_URL: db.url, WORKER: "off" });
  });
  after(async () => {
    for (const w of workers) await w.kill("SIGKILL");
    await api?.close();
    await db?.drop();
    await node?.stop();
  });

  const worker = () => {
    const w = startWorkerProcess({
      DATABASE_URL: db.url,
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 500 }]),
      TASK_LEASE_MS: String(LEASE_MS),
      WORKER_POLL_MS: "50",
    });
    workers.push(w);
    return w;
  };

  it("killedWorker_duringDeploy_newWorkerCompletesTheTask_withOneSetOfContracts", async () => {
    const auth = {
      ...(await bearerFor(api.service, "kill", DEPLOY_SCOPES)),
    };
    const { executor, brand } = actors(node.provider);
    const res = await api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("killed", brand.address),
      auth,
    );
    assert.equal(res.status, 202);
    const { taskId } = res.body.data;

    const first = worker();
    const deadline = Date.now() + 60_000;
    let stage: { status: string; transactions: unknown[] } | undefined;
    for (;;) {
      const task = (await api.call("GET", `/v1/client-onboarding/tasks/${taskId}`, undefined, auth)).body.data;
      stage = task.stages.find((s: { name: string }) => s.name === "deploy");
      // Killed once the deploy stage has sent a transaction: it may be in flight.
      if (stage && stage.status !== "pending" && stage.transactions.length > 0) break;
      assert.ok(Date.now() < deadline, `deploy never started: ${first.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await first.kill("SIGKILL");
    assert.equal(first.child.signalCode, "SIGKILL");
    const killed = (await api.call("GET", `/v1/client-onboarding/tasks/${taskId}`, undefined, auth)).body.data;
    assert.equal(killed.status, "running", "the dead worker's task stays running until its lease expires");
    assert.equal(killed.attempts, 1);
    assert.equal(stage!.status, "running", "killed in the middle of the deploy stage");

    const second = worker();
    const done = await waitForTask(api, taskId, auth, 60_000);
    assert.equal(done.status, "succeeded", `${JSON.stringify(done.stages)}\n${second.output()}`);
    assert.equal(done.attempts, 2, "taken over once");
    assert.match(second.output(), /onboarding task started/);
    assert.match(second.output(), /onboarding task succeeded/);
    // Six release contracts, the mock collateral and deployProgram: each sent once.
    assert.equal(await node.provider.getTransactionCount(executor.address), 8);
    assert.equal(recordedTxs(done).length, 8);
    const pf = (await api.service.ctx.programs.get("killed")).programFactory!;
    await assertOneSetEach(node.provider, pf, ["killed"], 1);
    const listed = await api.call("GET", "/api/v1/contracts/factories/killed");
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.factory, done.program.addresses.factory);
  });
});
