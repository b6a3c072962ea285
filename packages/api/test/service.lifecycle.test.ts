import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { actors, startNode, type DevNode } from "@points/testkit";
import { cli } from "./helpers/cli.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { bearerFor, DEPLOY_SCOPES, startApi } from "./helpers/service.js";

// `points-api serve` on a busy port said "Cannot destructure property 'port'", and a
// shutdown with a stuck transaction took about 50 s.
describe("service lifecycle: a busy port said in words, a bounded shutdown", () => {
  let busy: Server;
  let port: number;
  let node: DevNode;

  before(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    port = (busy.address() as { port: number }).port;
    node = await startNode();
  });
  after(async () => {
    await new Promise<void>((r) => busy.close(() => r()));
    await node?.stop();
  });

  it("serveOnABusyPort_exits1_namingThePortAndTheSetting", async () => {
    const dir = await mkdtemp(join(tmpdir(), "points-serve-"));
    const res = await cli(dir, ["serve"], {
      PORT: String(port),
      LOG_LEVEL: "silent",
      LEDGER: "off",
      WEBHOOKS: "off",
      WORKER: "off",
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url }]),
    });
    assert.equal(res.code, 1, res.stderr);
    assert.equal(
      res.stderr,
      `points-api: port ${port} on 127.0.0.1 is already in use (another points-api running?): stop it or set PORT\n`,
    );
  });

  it("closeWhileATaskWaitsOnAStuckTransaction_endsWithin10Seconds", async () => {
    const api = await startApi(node.url);
    let closed = false;
    try {
      const auth = await bearerFor(api.service, "deployer", [...DEPLOY_SCOPES]);
      // Nothing is mined from here on: the deploy's first transaction stays pending.
      await node.setAutomine(false);
      const res = await api.call(
        "POST",
        "/api/v1/client-onboarding/deploy",
        onboardingBody("stuck", actors(node.provider).brand.address),
        auth,
      );
      assert.equal(res.status, 202, JSON.stringify(res.body));
      // Wait on state: the executor's transaction is in the node's pool.
      const deadline = Date.now() + 60_000;
      while ((await node.provider.send("eth_getBlockByNumber", ["pending", false])).transactions.length === 0) {
        assert.ok(Date.now() < deadline, "the deploy never sent a transaction");
        await new Promise((r) => setTimeout(r, 100));
      }
      const started = Date.now();
      await api.close();
      closed = true;
      const tookMs = Date.now() - started;
      assert.ok(tookMs < 10_000, `close took ${tookMs} ms`);
    } finally {
      if (!closed) await api.close();
      await node.setAutomine(true);
    }
  });

  it("closeWhileAJobsPassHangs_resolvesAfterJOB_DRAIN_MS_andNamesTheJob", async () => {
    const warnings: { job?: string; drainMs?: number; msg: string }[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    // A bound wide enough for every other job's pass to end on a busy machine.
    const api = await startApi(node.url, { JOB_DRAIN_MS: "3000" }, { logger });
    // The worker's next claim never answers (a database or an RPC that hangs): its pass is stuck.
    let stuck!: () => void;
    const claimed = new Promise<void>((resolve) => (stuck = resolve));
    api.service.ctx.tasks.claim = () => (stuck(), new Promise(() => {}));
    api.service.worker!.poke();
    await claimed;
    // Without the bound this close would wait forever (the test's timeout would end it).
    await api.close();
    const undrained = warnings.filter((w) => w.drainMs !== undefined);
    assert.deepEqual(
      undrained.map((w) => [w.job, w.drainMs! <= 3000]),
      [["onboarding", true]],
      "only the stuck job is named, with the time it was given",
    );
    assert.match(undrained[0]!.msg, /onboarding job did not drain/);
  });
});
