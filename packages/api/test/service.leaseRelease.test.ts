import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, freePort, startNode, type DevNode } from "@points/testkit";
import { openDb } from "../src/core/db/db.js";
import { TaskRepo } from "../src/core/onboarding/tasks.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { bearerFor, DEPLOY_SCOPES, startApi, type TestApi } from "./helpers/service.js";
import { startWorkerProcess } from "./helpers/workerProcess.js";

// Ten minutes: within a test only an explicit release can explain a takeover, never expiry.
const LEASE_MS = 600_000;

async function until(what: string, fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface LeaseRow {
  owner: string;
  live: boolean;
}
interface TaskRow {
  status: string;
  lease_owner: string | null;
  live: boolean;
}

// A graceful close (SIGTERM, SIGINT, service.close()) gives the instance's leases back, so a
// peer on the same database takes over at once instead of waiting out the lease.
describe("graceful shutdown: a closed instance's leases go to its peer at once (two services, one PostgreSQL)", () => {
  let node: DevNode;
  let scratch: ScratchDatabase;
  const apis: TestApi[] = [];
  const env = () => ({ DATABASE_URL: scratch.url, TASK_LEASE_MS: String(LEASE_MS), WORKER_POLL_MS: "100" });
  const start = async () => {
    const api = await startApi(node.url, env());
    apis.push(api);
    return api;
  };
  const close = async (api: TestApi) => {
    apis.splice(apis.indexOf(api), 1);
    await api.close();
  };
  let db: Awaited<ReturnType<typeof openDb>>;
  const executorLease = async () =>
    (
      await db.query<LeaseRow>("SELECT owner, expires_at > now() AS live FROM executor_leases WHERE chain_id = '31337'")
    )[0];
  const task = async (id: string) =>
    (
      await db.query<TaskRow>(
        "SELECT status, lease_owner, lease_expires_at > now() AS live FROM onboarding_tasks WHERE id = $1",
        [id],
      )
    )[0];

  before(async () => {
    [node, scratch] = await Promise.all([startNode({ port: await freePort() }), createScratchDatabase()]);
    db = await openDb({ databaseUrl: scratch.url, dataDir: "memory://" });
  });
  after(async () => {
    for (const api of [...apis]) await close(api);
    await node?.setAutomine(true);
    await db?.close();
    await node?.stop();
    await scratch?.drop();
  });

  it("closingTheHolder_releasesTheExecutorLease_andThePeersWorkerAndDeskTakeItBeforeItWouldExpire", async () => {
    const a = await start();
    await until("A holds the executor lease", async () => (await executorLease())?.owner === a.service.worker!.id);
    const b = await start();
    // B polls every 100 ms and is refused: A's lease is live for minutes yet.
    await new Promise((r) => setTimeout(r, 500));
    const before = await executorLease();
    assert.deepEqual(before, { owner: a.service.worker!.id, live: true });
    assert.equal(b.service.desk!.lease.holds("31337"), false);
    const expiresAt = (
      await db.query<{ at: string }>("SELECT expires_at::text AS at FROM executor_leases WHERE chain_id = '31337'")
    )[0].at;

    await close(a);

    await until("B holds the executor lease", async () => (await executorLease())?.owner === b.service.worker!.id);
    // A's lease had not run out: the takeover came from A giving it back.
    const [{ unexpired }] = await db.query<{ unexpired: boolean }>("SELECT $1::timestamptz > now() AS unexpired", [
      expiresAt,
    ]);
    assert.equal(unexpired, true);
    assert.deepEqual(await executorLease(), { owner: b.service.worker!.id, live: true });
    // B's desk acts for the chain too, within its poll rather than a third of the lease.
    await until("B's desk holds the chain", async () => b.service.desk!.lease.holds("31337"));
  });

  it("aTaskLeftRunningByAClosedWorker_isReleased_andThePeerClaimsItAtOnce", async () => {
    // From the first test B (the only instance) holds the executor lease.
    const [b] = apis;
    const auth = await bearerFor(b.service, "deployer", [...DEPLOY_SCOPES]);
    // Nothing is mined from here on: the deploy's first transaction stays pending, so the task
    // is still running when the worker's drain ends.
    await node.setAutomine(false);
    const res = await b.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("leftover", actors(node.provider).brand.address),
      auth,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id = (res.body as { data: { taskId: string } }).data.taskId;
    await until("B runs the task", async () => (await task(id))?.status === "running", 60_000);
    await until(
      "the deploy's transaction is pending",
      async () => (await node.provider.send("eth_getBlockByNumber", ["pending", false])).transactions.length > 0,
      60_000,
    );
    const bWorker = b.service.worker!.id;

    await close(b);

    // Still B's and still running (another worker resumes it), but its lease has ended.
    assert.deepEqual(await task(id), { status: "running", lease_owner: bWorker, live: false });
    assert.equal(await executorLease(), undefined);
    const c = await start();
    await until("C claims the task", async () => (await task(id))?.lease_owner === c.service.worker!.id);
    assert.deepEqual(await task(id), { status: "running", lease_owner: c.service.worker!.id, live: true });
  });

  it("pointsApiServe_onSigterm_exits0_andGivesBackTheExecutorAndItsUnfinishedTasksLeases", async (t) => {
    // From the second test C holds the executor and the stuck task (nothing is mined yet).
    const id = (await db.query<{ id: string }>("SELECT id FROM onboarding_tasks WHERE brand = 'leftover'"))[0].id;
    for (const api of [...apis]) await close(api);
    const proc = startWorkerProcess(
      {
        ...env(),
        PORT: "0",
        LEDGER: "off",
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 200 }]),
      },
      "serve",
    );
    t.after(() => proc.kill("SIGKILL"));
    let owner = "";
    await until("the serve process holds the executor lease and the task", async () => {
      assert.equal(proc.child.exitCode, null, proc.output());
      owner = (await executorLease())?.owner ?? "";
      return owner !== "" && (await task(id))?.lease_owner === owner;
    }).catch(async (e: Error) => {
      // Why it did not: the task's row and the process's last lines.
      const rows = await db.query("SELECT status, lease_owner, error FROM onboarding_tasks");
      assert.fail(`${e.message}: ${JSON.stringify(rows)}\n${proc.output().slice(-3000)}`);
    });
    assert.deepEqual(await executorLease(), { owner, live: true });
    assert.deepEqual(await task(id), { status: "running", lease_owner: owner, live: true });

    await proc.kill("SIGTERM");

    assert.equal(proc.child.exitCode, 0, proc.output());
    assert.equal(await executorLease(), undefined);
    assert.deepEqual(await task(id), { status: "running", lease_owner: owner, live: false });
  });

  it("aHolder_cannotReleaseAnotherHoldersExecutorOrTaskLease", async () => {
    const tasks = new TaskRepo(db);
    assert.equal(await tasks.leaseExecutor("999", "holder", LEASE_MS), true);
    await tasks.releaseExecutor("999", "intruder");
    assert.deepEqual(
      await db.query<LeaseRow>("SELECT owner, expires_at > now() AS live FROM executor_leases WHERE chain_id = '999'"),
      [{ owner: "holder", live: true }],
    );
    const { task: queued } = await tasks.create({
      owner: null,
      request: onboardingBody("heldelsewhere", actors(node.provider).brand.address, { chainId: 999 }) as never,
      predicted: null,
    });
    assert.equal((await tasks.claim("999", "holder", LEASE_MS))?.id, queued.id);
    assert.deepEqual(await tasks.releaseTasks("intruder"), []);
    assert.deepEqual(await task(queued.id), { status: "running", lease_owner: "holder", live: true });
    // Its own holder can: both leases end.
    assert.deepEqual(await tasks.releaseTasks("holder"), [queued.id]);
    await tasks.releaseExecutor("999", "holder");
    assert.deepEqual(await task(queued.id), { status: "running", lease_owner: "holder", live: false });
    assert.deepEqual(await db.query("SELECT owner FROM executor_leases WHERE chain_id = '999'"), []);
  });
});
