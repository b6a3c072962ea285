import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Contract, Wallet, id, type EventLog } from "ethers";
import { Factory__factory, ProgramFactory__factory } from "@points/contracts";
import { actors, DEV_KEYS, startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { startApi, bearerFor, DEPLOY_SCOPES, type TestApi } from "./helpers/service.js";
import { assertOneSetEach, onboardingBody, waitForTask } from "./helpers/onboarding.js";
import { until } from "./helpers/engine.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import { laneIndex } from "../src/core/engine/registry.js";

const RELEASE_TXS = 6;
const PER_PROGRAM_TXS = 2;
const KEYS = [DEV_KEYS[0], DEV_KEYS[7]];
const LANES = KEYS.map((k) => new Wallet(k).address);

/**
 * Two executor keys on one chain (EXECUTOR_PRIVATE_KEYS): tasks spread over both by their id,
 * each key its own nonce lane, the first key the program's executor whichever key sends; dropped
 * sends, and a worker stopped mid-flight whose successor recovers each key's pending nonces.
 */
describe("engine: several executor keys per chain", () => {
  let node: DevNode;
  let proxy: FaultProxy;
  let api: TestApi;
  let auth: Record<string, string>;
  let dir: string;
  let env: Record<string, string>;
  const sentBy = (address: string) => node.provider.getTransactionCount(address, "latest");

  before(async () => {
    node = await startNode();
    await node.setAutomine(false);
    await node.setIntervalMining(250);
    proxy = await startFaultProxy(node.url);
    dir = await mkdtemp(join(tmpdir(), "engine-lanes-"));
    const chain = {
      chainId: 31337,
      name: "Lanes",
      rpcUrl: proxy.url,
      blockTimeMs: 250,
      engine: { replaceAfterBlocks: 3, concurrency: 8 },
    };
    env = {
      CHAINS: JSON.stringify([chain]),
      WORKER_POLL_MS: "20",
      TASK_LEASE_MS: "1500",
      // The shared test machine can stall the node for seconds.
      RPC_TIMEOUT_MS: "30000",
      DATA_DIR: process.env.LANES_DATA_DIR ?? dir,
      EXECUTOR_PRIVATE_KEYS: KEYS[1],
      // A stopped worker's pass waits for a receipt no block will bring; stop without it soon.
      JOB_DRAIN_MS: "1000",
    };
    api = await startApi(node.url, env);
    auth = await bearerFor(api.service, "lanes", DEPLOY_SCOPES);
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await node?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const post = async (brand: string) => {
    const body = onboardingBody(brand, actors(node.provider).brand.address);
    const res = await api.call("POST", "/api/v1/client-onboarding/deploy", body, auth);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.taskId as string;
  };
  const programFactory = async () =>
    new Contract(
      (await new DbManifestStore(api.service.ctx.db).getRelease(31337n))!.programFactory,
      ProgramFactory__factory.abi,
      node.provider,
    );
  /** Who sent each brand's ProgramFactory.deployProgram. */
  const deploySenders = async (brands: string[]) => {
    const pf = await programFactory();
    const events = (await pf.queryFilter(pf.filters.ProgramDeployed(), 0)) as EventLog[];
    const by = new Map<string, string>();
    for (const e of events) by.set(e.args.brand, (await e.getTransaction()).from);
    return brands.map((b) => by.get(b));
  };

  it("tasksSpreadOverBothKeysByTheirId_throughDroppedSends_everyProgramOnce_theFirstKeyIsEveryProgramsExecutor", async () => {
    const before = await Promise.all(LANES.map(sentBy));
    proxy.faults.dropSends = 3;
    const brands = ["lanea", "laneb", "lanec", "laned", "lanee", "lanef"];
    const ids = await Promise.all(brands.map(post));
    const tasks = await Promise.all(ids.map((taskId) => waitForTask(api, taskId, auth, 180_000)));
    for (const t of tasks) assert.equal(t.status, "succeeded", JSON.stringify(t.error));
    const pf = await programFactory();
    await assertOneSetEach(node.provider, await pf.getAddress(), brands, brands.length);
    assert.equal(proxy.dropped.length, 3);

    // Each task's deploy went out from the key its id hashes to.
    assert.deepEqual(
      await deploySenders(brands),
      ids.map((taskId) => LANES[laneIndex(taskId, LANES.length)]),
    );
    for (const t of tasks) {
      const factory = new Contract(t.program.addresses.factory, Factory__factory.abi, node.provider);
      assert.equal(await factory.hasRole(id("EXECUTOR_ROLE"), LANES[0]), true);
      assert.equal(await factory.hasRole(id("EXECUTOR_ROLE"), LANES[1]), false);
    }
    // Every key that deployed is an operator; the first key granted that once to a key that lacked it.
    const OPERATOR = id("OPERATOR_ROLE");
    const used = new Set(ids.map((taskId) => LANES[laneIndex(taskId, LANES.length)]));
    for (const lane of used) assert.equal(await pf.hasRole(OPERATOR, lane), true, lane);
    const grants = (await pf.queryFilter(pf.filters.RoleGranted(OPERATOR), 0)).length - 1;
    assert.ok(grants <= 1, `operator grants after the release: ${grants}`);
    const sent = (await Promise.all(LANES.map(sentBy))).map((n, i) => n - before[i]);
    assert.equal(
      sent[0] + sent[1],
      RELEASE_TXS + PER_PROGRAM_TXS * brands.length + grants,
      `a clean run's nonce count over both keys (${sent})`,
    );
  });

  it("aWorkerStoppedMidFlight_itsSuccessorRecoversEachKeysPendingNonces_everyTaskFinishesOnce", async () => {
    const before = await Promise.all(LANES.map(sentBy));
    const OPERATOR = id("OPERATOR_ROLE");
    const grantsBefore = (
      await (await programFactory()).queryFilter((await programFactory()).filters.RoleGranted(OPERATOR), 0)
    ).length;
    const brands = ["stopa", "stopb", "stopc", "stopd"];
    // Mining pauses so the first transaction stays in the pool until the worker has stopped: on
    // a busy machine a 250 ms block could otherwise mine every transaction between two polls.
    await node.setIntervalMining(0);
    const ids = await Promise.all(brands.map(post));
    // Stop once some key has a transaction in the pool: its nonce is taken, its receipt not seen.
    await until(
      async () => {
        for (const a of LANES)
          if ((await node.provider.getTransactionCount(a, "pending")) > (await sentBy(a))) return true;
        return false;
      },
      60_000,
      "a pending transaction",
    );
    await api.close();
    await node.setIntervalMining(250);
    api = await startApi(node.url, env);
    const tasks = await Promise.all(ids.map((taskId) => waitForTask(api, taskId, auth, 180_000)));
    for (const t of tasks) assert.equal(t.status, "succeeded", JSON.stringify(t.error));
    const pf = await programFactory();
    await assertOneSetEach(node.provider, await pf.getAddress(), [...brands], 6 + brands.length);
    assert.deepEqual(
      await deploySenders(brands),
      ids.map((taskId) => LANES[laneIndex(taskId, LANES.length)]),
    );
    // Per key: exactly the transactions of the tasks hashed to it (no nonce reused, none filled).
    const expected = LANES.map(
      (lane) => ids.filter((taskId) => LANES[laneIndex(taskId, LANES.length)] === lane).length * PER_PROGRAM_TXS,
    );
    // A key that deploys for the first time was made an operator by the first key.
    expected[0] += (await pf.queryFilter(pf.filters.RoleGranted(OPERATOR), 0)).length - grantsBefore;
    const sent = (await Promise.all(LANES.map(sentBy))).map((n, i) => n - before[i]);
    assert.deepEqual(sent, expected);
  });
});
