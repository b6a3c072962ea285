import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { createScratchDatabase, PG_TEST_URL, type ScratchDatabase } from "./helpers/db.js";

/** A TCP relay to the test PostgreSQL that can be stopped and started on the same port. */
async function pgRelay() {
  const target = new URL(PG_TEST_URL);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await start();
  return {
    url: (database: string) =>
      `postgres://${target.username || "postgres"}@127.0.0.1:${port}${new URL(database).pathname}`,
    /** Closes the listener and every open connection: the database is gone for the service. */
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server!.close(() => resolve());
      }),
    start,
  };
}

const checksOf = (body: unknown) =>
  (
    (body as { error?: { details: { checks: unknown[] } }; data?: { checks: unknown[] } }).error?.details ??
    (body as { data: { checks: unknown[] } }).data
  ).checks;

describe("GET /ready: whether this instance can serve (database, migrations, every chain's RPC and chain id)", () => {
  let node: DevNode;
  let rpc: FaultProxy;
  let api: TestApi;

  before(async () => {
    node = await startNode();
    rpc = await startFaultProxy(node.url);
    api = await startApi(rpc.url);
  });
  after(async () => {
    await api?.close();
    await rpc?.close();
    await node?.stop();
  });

  it("ready_answers200_listingEveryCheck", async () => {
    const res = await api.call("GET", "/ready");
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      success: true,
      data: {
        ready: true,
        checks: [
          { name: "database", ok: true },
          { name: "migrations", ok: true },
          { name: "chain:31337", ok: true },
        ],
      },
    });
  });

  it("anRpcAnsweringAnotherChainId_is503NotReady_namingChainMismatch_whileHealthStays200", async () => {
    rpc.faults.chainId = 5;
    try {
      const res = await api.call("GET", "/ready");
      assert.equal(res.status, 503);
      const body = res.body as { success: boolean; error: { code: string; message: string } };
      assert.equal(body.success, false);
      assert.equal(body.error.code, "NOT_READY");
      assert.equal(body.error.message, "this instance cannot serve: chain:31337 failed");
      assert.deepEqual(checksOf(res.body), [
        { name: "database", ok: true },
        { name: "migrations", ok: true },
        { name: "chain:31337", ok: false, reason: "CHAIN_MISMATCH", error: "#0 serves chain 5, not 31337" },
      ]);
      assert.equal((await api.call("GET", "/health")).status, 200);
    } finally {
      delete rpc.faults.chainId;
    }
    assert.equal((await api.call("GET", "/ready")).status, 200, "ready again once the endpoint serves the chain");
  });

  it("anUnreachableRpc_is503NotReady_unreachable", async () => {
    rpc.faults.down = true;
    try {
      const res = await api.call("GET", "/ready");
      assert.equal(res.status, 503);
      const [, , chain] = checksOf(res.body) as { name: string; ok: boolean; reason: string }[];
      assert.deepEqual([chain.name, chain.ok, chain.reason], ["chain:31337", false, "unreachable"]);
    } finally {
      rpc.faults.down = false;
    }
    assert.equal((await api.call("GET", "/ready")).status, 200);
  });

  it("aMigrationNotApplied_is503NotReady_namingIt", async () => {
    const [{ id }] = await api.service.ctx.db.query<{ id: string }>(
      "DELETE FROM schema_migrations WHERE id = (SELECT max(id) FROM schema_migrations) RETURNING id",
    );
    try {
      const res = await api.call("GET", "/ready");
      assert.equal(res.status, 503);
      assert.deepEqual((checksOf(res.body) as unknown[])[1], {
        name: "migrations",
        ok: false,
        reason: "pending",
        error: `not applied: ${id}`,
      });
    } finally {
      await api.service.ctx.db.query("INSERT INTO schema_migrations (id) VALUES ($1)", [id]);
    }
  });
});

describe("GET /ready on PostgreSQL: a stopped database", () => {
  let node: DevNode;
  let scratch: ScratchDatabase;
  let relay: Awaited<ReturnType<typeof pgRelay>>;
  let api: TestApi;

  before(async () => {
    [node, scratch, relay] = await Promise.all([startNode(), createScratchDatabase(), pgRelay()]);
    api = await startApi(node.url, { DATABASE_URL: relay.url(scratch.url), WORKER: "off" });
  });
  after(async () => {
    await api?.close();
    // The relay listens again after the test: left open it would keep the process alive.
    await relay?.stop();
    await scratch?.drop();
    await node?.stop();
  });

  it("theDatabaseStopped_is503NotReady_databaseUnreachable_andReadyOnceItIsBack", async () => {
    assert.equal((await api.call("GET", "/ready")).status, 200);
    await relay.stop();
    try {
      const res = await api.call("GET", "/ready");
      assert.equal(res.status, 503);
      assert.equal(
        (res.body as { error: { message: string } }).error.message,
        "this instance cannot serve: database, migrations failed",
      );
      const [db, migrations, chain] = checksOf(res.body) as { name: string; ok: boolean; reason?: string }[];
      assert.deepEqual([db.name, db.ok, db.reason], ["database", false, "unreachable"]);
      assert.deepEqual([migrations.name, migrations.ok, migrations.reason], ["migrations", false, "unreachable"]);
      assert.deepEqual(chain, { name: "chain:31337", ok: true });
      assert.equal((await api.call("GET", "/health")).status, 200, "alive, not ready");
    } finally {
      await relay.start();
    }
    assert.equal((await api.call("GET", "/ready")).status, 200);
  });
});
