import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Transaction } from "ethers";
import { actors, type DevNode, type FaultProxy, startFaultProxy, startNode } from "@points/testkit";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startWorkerProcess, type WorkerProcess } from "./helpers/workerProcess.js";
import { assertOneSetEach, onboardingBody, recordedTxs, sentBy, waitForTask } from "./helpers/onboarding.js";

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
  const proxies: FaultProxy[] = [];

  before(async () => {
    node = await startNode();
    await node.setAutomine(false);
    await node.setIntervalMining(500);
    db = await createScratchDatabase();
    // The test polls task views often: not what the rate limits are for.
    api = await startApi(node.url, {
      DATABASE_URL: db.url,
      WORKER: "off",
      RATE_LIMIT_PER_MINUTE_IP: "100000",
      RATE_LIMIT_PER_MINUTE_KEY: "100000",
    });
  });
  after(async () => {
    for (const w of workers) await w.kill("SIGKILL");
    for (const p of proxies) await p.close();
    await api?.close();
    await db?.drop();
    await node?.stop();
  });

  const worker = (rpcUrl = node.url) => {
    const w = startWorkerProcess({
      DATABASE_URL: db.url,
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl, blockTimeMs: 500 }]),
      TASK_LEASE_MS: String(LEASE_MS),
      WORKER_POLL_MS: "50",
    });
    workers.push(w);
    return w;
  };
  const proxy = async () => {
    const p = await startFaultProxy(node.url);
    proxies.push(p);
    return p;
  };

  /** Queues a deploy of `name`; returns the task id and the caller's auth. */
  async function queue(name: string) {
    const auth = await bearerFor(api.service, name, DEPLOY_SCOPES);
    const res = await api.call("POST", "/api/v1/client-onboarding/deploy", onboardingBody(name, brandWallet()), auth);
    assert.equal(res.status, 202);
    return { taskId: res.body.data.taskId as string, auth };
  }
  const brandWallet = () => actors(node.provider).brand.address;
  const task = async (taskId: string, auth: Record<string, string>) => {
    const res = await api.call("GET", `/v1/client-onboarding/tasks/${taskId}`, undefined, auth);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };

  /** Waits until the deploy stage has recorded a transaction (and `also` holds), failing after 60 s. */
  async function untilDeploySent(taskId: string, auth: Record<string, string>, w: WorkerProcess, also = () => true) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const view = await task(taskId, auth);
      const stage = view.stages.find((s: { name: string }) => s.name === "deploy");
      if (stage && stage.status !== "pending" && stage.transactions.length > 0 && also()) return stage;
      assert.ok(Date.now() < deadline, `deploy never started: ${JSON.stringify(view.stages)}\n${w.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The executor sent `expected` transactions in all, and the tasks' records list exactly those. */
  async function assertSent(expected: number, records: number, done: { stages: unknown }, ...ws: WorkerProcess[]) {
    const { executor } = actors(node.provider);
    const count = await node.provider.getTransactionCount(executor.address);
    if (count !== expected || records !== recordedTxs(done as never).length) {
      assert.fail(
        `executor sent ${count} transactions (expected ${expected}); the task records ${recordedTxs(done as never).length} (expected ${records}):\n` +
          `${await sentBy(node.provider, executor.address)}\nstages: ${JSON.stringify(done.stages)}\n` +
          ws.map((w, i) => `worker ${i + 1}:\n${w.output()}`).join("\n"),
      );
    }
  }

  it("killedWorker_duringDeploy_newWorkerCompletesTheTask_withOneSetOfContracts", async () => {
    const { taskId, auth } = await queue("killed");
    const first = worker();
    // Killed once the deploy stage has sent a transaction: it may be in flight.
    const stage = await untilDeploySent(taskId, auth, first);
    await first.kill("SIGKILL");
    assert.equal(first.child.signalCode, "SIGKILL");
    const killed = await task(taskId, auth);
    assert.equal(killed.status, "running", "the dead worker's task stays running until its lease expires");
    assert.equal(killed.attempts, 1);
    assert.equal(stage.status, "running", "killed in the middle of the deploy stage");

    const second = worker();
    const done = await waitForTask(api, taskId, auth, 60_000);
    assert.equal(done.status, "succeeded", `${JSON.stringify(done.stages)}\n${second.output()}`);
    assert.equal(done.attempts, 2, "taken over once");
    assert.match(second.output(), /onboarding task started/);
    assert.match(second.output(), /onboarding task succeeded/);
    // Six release contracts, the mock collateral and deployProgram: each sent once.
    await assertSent(8, 8, done, first, second);
    const pf = (await api.service.ctx.programs.get("killed")).programFactory!;
    await assertOneSetEach(node.provider, pf, ["killed"], 1);
    const listed = await api.call("GET", "/api/v1/contracts/factories/killed");
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.factory, done.program.addresses.factory);
    // No worker is left for the next case but its own.
    await second.kill("SIGTERM");
  });

  it("killedWorker_whoseSignedTransactionReachesTheNodeAfterTheTakeover_theNewWorkerSendsThatOne_noSecondNonce", async () => {
    const { executor } = actors(node.provider);
    const before = await node.provider.getTransactionCount(executor.address);
    // The first worker's sends from here on never reach the node while it lives.
    const held = await proxy();
    held.faults.dropWhen = (raw) => Transaction.from(raw).nonce >= before;
    const { taskId, auth } = await queue("late");
    const first = worker(held.url);
    await untilDeploySent(taskId, auth, first, () => held.dropped.length > 0);
    await first.kill("SIGKILL");
    const signed = held.dropped[0];

    // ... and the first one arrives just after the new worker's engine read the account's nonces.
    // Blocks wait for the new worker's first send, so it cannot find the late one already mined.
    const late = await proxy();
    let delivered = false;
    let mining = true;
    late.faults.afterAnswer = async (calls) => {
      if (!delivered && calls.some((c) => c.method === "eth_getTransactionCount" && c.params?.[1] === "pending")) {
        delivered = true;
        mining = false;
        await node.setIntervalMining(0);
        await node.provider.send("eth_sendRawTransaction", [signed]);
      } else if (delivered && !mining && calls.some((c) => c.method === "eth_sendRawTransaction")) {
        mining = true;
        await node.setIntervalMining(500);
      }
    };
    const second = worker(late.url);
    const done = await waitForTask(api, taskId, auth, 60_000);
    assert.equal(done.status, "succeeded", `${JSON.stringify(done.stages)}\n${second.output()}`);
    assert.equal(done.attempts, 2, "taken over once");
    assert.ok(delivered, "the signed transaction was delivered late");
    // The release exists: the mock collateral and deployProgram, each sent once.
    await assertSent(before + 2, 2, done, first, second);
    const mined = await node.provider.getTransaction(Transaction.from(signed).hash!);
    assert.equal(mined?.nonce, before, "the transaction the first worker signed is the one mined");
    assert.ok(recordedTxs(done).includes(mined!.hash), "and the one the task records");
    const pf = (await api.service.ctx.programs.get("late")).programFactory!;
    await assertOneSetEach(node.provider, pf, ["killed", "late"], 2);
  });
});
