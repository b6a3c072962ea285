import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { actors, type DevNode, startNode } from "@points/testkit";
import { createService, loadConfig, type Service } from "../src/index.js";
import { createLogger } from "../src/server/http/logger.js";
import { openDb, type Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { TaskRepo } from "../src/core/onboarding/tasks.js";
import { startApi, type TestApi, bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { assertOneSetEach, onboardingBody, waitForTask } from "./helpers/onboarding.js";

const TASKS = 12;

/**
 * Two workers, each with its own connection pool, share one PostgreSQL queue: several API
 * instances or workers against one PostgreSQL never run the same task twice.
 */
describe("onboarding: two workers against the real PostgreSQL (every task runs exactly once)", () => {
  let db: ScratchDatabase;

  before(async () => {
    db = await createScratchDatabase();
  });
  after(() => db?.drop());

  it("claim_fromTwoPools_racing_givesEveryQueuedTaskToExactlyOneClaimer", async () => {
    const pools: Db[] = [await openDb({ databaseUrl: db.url, dataDir: "unused" })];
    await migrate(pools[0]);
    pools.push(await openDb({ databaseUrl: db.url, dataDir: "unused" }));
    try {
      const [a, b] = pools.map((p) => new TaskRepo(p));
      for (let i = 0; i < TASKS; i++) {
        const request = onboardingBody(`race${i}`, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8") as never;
        await a.create({ owner: "key:race", request, predicted: null });
      }
      // 24 claims at once, 12 per pool: no executor lease here, only the row locks decide.
      const claims = await Promise.all(
        Array.from({ length: 2 * TASKS }, (_, i) => (i % 2 ? a : b).claim("31337", `claimer-${i}`, 60_000)),
      );
      const won = claims.filter((t) => t !== undefined);
      assert.equal(won.length, TASKS);
      assert.equal(new Set(won.map((t) => t.id)).size, TASKS, "no task claimed twice");
      assert.ok(won.every((t) => t.attempts === 1 && t.status === "running"));
      assert.equal(await a.claim("31337", "late", 60_000), undefined, "nothing left while leases are live");
      await pools[0].query("DELETE FROM onboarding_tasks");
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it("claim_ofATaskWhoseLeaseLapsed_goesToAnotherWorker_neverBackToTheWorkerStillRunningIt", async () => {
    const pool = await openDb({ databaseUrl: db.url, dataDir: "unused" });
    await migrate(pool);
    try {
      const tasks = new TaskRepo(pool);
      const request = onboardingBody("lapsed", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8") as never;
      const { id } = (await tasks.create({ owner: "key:lapsed", request, predicted: null })).task;
      assert.equal((await tasks.claim("31337", "slow", 60_000))?.id, id);
      // The holder was paused past its lease (a loaded machine) and has not renewed yet.
      await pool.query("UPDATE onboarding_tasks SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [
        id,
      ]);
      assert.equal(await tasks.claim("31337", "slow", 60_000), undefined, "no second attempt beside the first");
      assert.equal(await tasks.renew(id, "slow", 60_000), true, "the late renewal still holds it");
      await pool.query("UPDATE onboarding_tasks SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [
        id,
      ]);
      const taken = await tasks.claim("31337", "other", 60_000);
      assert.deepEqual([taken?.id, taken?.attempts], [id, 2], "another worker takes a lapsed lease over");
      assert.equal(await tasks.renew(id, "slow", 60_000), false, "and the first worker learns it lost it");
      await pool.query("DELETE FROM onboarding_tasks");
    } finally {
      await pool.close();
    }
  });

  describe("two worker services and a chain", () => {
    let node: DevNode;
    let api: TestApi;
    const workers: Service[] = [];
    const logs: string[] = [];

    before(async () => {
      node = await startNode();
      api = await startApi(node.url, { DATABASE_URL: db.url, WORKER: "off", DEPLOY_QUOTA_PER_DAY: "100" });
    });
    after(async () => {
      for (const w of workers) await w.close();
      await api?.close();
      await node?.stop();
    });

    it(`${TASKS}queuedTasks_twoWorkers_eachTaskRunsOnce_oneProgramPerBrand`, async () => {
      const auth = {
        ...(await bearerFor(api.service, "two", DEPLOY_SCOPES)),
      };
      const { brand } = actors(node.provider);
      const brands = Array.from({ length: TASKS }, (_, i) => `brand${i}`);
      const ids: string[] = [];
      for (const b of brands) {
        const res = await api.call("POST", "/api/v1/client-onboarding/deploy", onboardingBody(b, brand.address), auth);
        assert.equal(res.status, 202);
        ids.push(res.body.data.taskId);
      }
      const sink = new Writable({
        write(chunk, _enc, done) {
          logs.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      });
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({
          DATABASE_URL: db.url,
          PORT: "0",
          WORKER_POLL_MS: "20",
          // Long enough that a loaded machine never lets a lease lapse: a lapse is a legitimate second attempt.
          TASK_LEASE_MS: "30000",
          CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 200 }]),
        });
        workers.push(await createService(config, { logger: createLogger("info", sink) }));
      }
      const tasks = [];
      for (const id of ids) tasks.push(await waitForTask(api, id, auth, 180_000));
      assert.deepEqual(
        tasks.map((t) => [t.brand, t.status, t.attempts]),
        brands.map((b) => [b, "succeeded", 1]),
      );
      const started = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "onboarding task started");
      assert.equal(started.length, TASKS, "each task started once across both workers");
      assert.equal(new Set(started.map((l) => l.taskId)).size, TASKS);
      const pf = (await api.service.ctx.programs.get(brands[0])).programFactory!;
      await assertOneSetEach(node.provider, pf, brands, TASKS);
      // One release for the chain: every task after the first found it.
      const releases = await api.service.ctx.db.query(
        "SELECT key FROM deployer_manifests WHERE key LIKE '%/release-%'",
      );
      assert.equal(releases.length, 1);
    });
  });
});
