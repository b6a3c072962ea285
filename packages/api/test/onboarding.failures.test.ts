import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { createServer, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { Wallet, parseEther } from "ethers";
import { actors, type DevNode, freePort, startNode } from "@points/testkit";
import { createService, loadConfig, memoryDbTemplate, type Service } from "../src/index.js";
import { createLogger } from "../src/server/http/logger.js";
import { onboardingBody } from "./helpers/onboarding.js";

/**
 * Failure modes of a task's chain (a clear stage error, not a hang: every chain call has a
 * timeout), and the executor key's secrecy: every log line, response and database row
 * of every service in this file is kept and searched for every key used.
 */
describe("onboarding: failure modes and the executor key's secrecy", () => {
  let node: DevNode;
  const seen: string[] = [];
  const keys: string[] = [];

  before(async () => {
    node = await startNode();
  });
  after(() => node?.stop());

  /** A service with captured logs; `run` queues a task and waits until it ends. */
  async function withService<T>(env: Record<string, string>, fn: (run: (brand: string) => Promise<any>) => Promise<T>) {
    const sink = new Writable({
      write(chunk, _enc, done) {
        seen.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({
      PORT: "0",
      DATA_DIR: "memory://",
      WORKER_POLL_MS: "20",
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 200 }]),
      ...env,
    });
    const service: Service = await createService(config, {
      logger: createLogger("debug", sink),
      memoryDbSeed: await memoryDbTemplate(),
    });
    const url = await service.listen();
    const auth = {
      ...(await bearerFor(service, "failures", DEPLOY_SCOPES)),
    };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, {
        method,
        headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      seen.push(text, JSON.stringify([...res.headers]));
      return { status: res.status, body: JSON.parse(text) };
    };
    const run = async (brand: string) => {
      const started = Date.now();
      const res = await call(
        "POST",
        "/api/v1/client-onboarding/deploy",
        onboardingBody(brand, actors(node.provider).brand.address),
      );
      assert.equal(res.status, 202, JSON.stringify(res.body));
      for (;;) {
        const { body } = await call("GET", `/api/v1/client-onboarding/tasks/${res.body.data.taskId}`);
        if (body.data.status === "succeeded" || body.data.status === "failed") {
          return { ...body.data, seconds: (Date.now() - started) / 1000 };
        }
        if (Date.now() - started > 60_000) throw new Error(`task still ${body.data.status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      return await fn(run);
    } finally {
      await dumpDatabase(service);
      await service.close();
    }
  }

  async function dumpDatabase(service: Service) {
    const tables = await service.ctx.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    assert.ok(tables.some((t) => t.table_name === "onboarding_tasks"));
    for (const { table_name } of tables) {
      seen.push(JSON.stringify(await service.ctx.db.query(`SELECT * FROM ${table_name}`)));
    }
  }

  it("executorWithoutFunds_failsTheValidateStage_withInsufficientFunds_andSendsNothing", async () => {
    const poor = Wallet.createRandom();
    keys.push(poor.privateKey);
    await withService({ EXECUTOR_PRIVATE_KEY: poor.privateKey }, async (run) => {
      const task = await run("poor");
      assert.equal(task.status, "failed");
      assert.deepEqual([task.error.stage, task.error.code], ["validate", "INSUFFICIENT_FUNDS"]);
      assert.match(task.error.message, /^signer: 0x[0-9a-fA-F]{40} holds 0 wei but/);
      assert.equal(task.stages[0].status, "failed");
      assert.match(task.stages[0].error, /holds 0 wei/);
      assert.deepEqual(
        task.stages.slice(1).map((s: { status: string }) => s.status),
        ["pending", "pending", "pending", "pending"],
      );
      assert.ok(task.seconds < 10, `failed after ${task.seconds} s`);
      assert.equal(await node.provider.getTransactionCount(poor.address), 0);
      // Validation failures cost nothing: the brand is free at once, not after the retry window.
      const again = await run("poor");
      assert.deepEqual(
        [again.status, again.error.stage, again.error.code],
        ["failed", "validate", "INSUFFICIENT_FUNDS"],
      );
    });
  });

  it("unreachableRpc_failsTheTask_withChainUnavailable_withinSeconds", async () => {
    const closed = await freePort();
    const chains = JSON.stringify([{ chainId: 31337, name: "Down", rpcUrl: `http://127.0.0.1:${closed}` }]);
    await withService({ CHAINS: chains, RPC_TIMEOUT_MS: "1000" }, async (run) => {
      const task = await run("unreachable");
      assert.equal(task.status, "failed");
      assert.deepEqual([task.error.stage, task.error.code], ["validate", "CHAIN_UNAVAILABLE"]);
      assert.match(task.error.message, /the RPC endpoint did not answer/);
      assert.ok(task.seconds < 5, `failed after ${task.seconds} s`);
      const again = await run("unreachable");
      assert.deepEqual([again.error.stage, again.error.code], ["validate", "CHAIN_UNAVAILABLE"], "the brand was freed");
    });
  });

  it("rpcThatNeverAnswers_failsTheTask_withChainUnavailable_afterTheRpcTimeout", async () => {
    // Accepts connections and says nothing: only a timeout ends the wait.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    const port = await new Promise<number>((r) =>
      silent.listen(0, "127.0.0.1", () => r((silent.address() as any).port)),
    );
    const chains = JSON.stringify([{ chainId: 31337, name: "Silent", rpcUrl: `http://127.0.0.1:${port}` }]);
    try {
      await withService({ CHAINS: chains, RPC_TIMEOUT_MS: "1000" }, async (run) => {
        const task = await run("silent");
        assert.equal(task.status, "failed");
        assert.deepEqual([task.error.stage, task.error.code], ["validate", "CHAIN_UNAVAILABLE"]);
        assert.ok(task.seconds < 8, `failed after ${task.seconds} s`);
      });
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it("fundedExecutorFromTheEnvironment_deploys_andIsTheProgramsExecutor", async () => {
    const executor = Wallet.createRandom(node.provider);
    keys.push(executor.privateKey);
    const fund = await actors(node.provider).executor.sendTransaction({
      to: executor.address,
      value: parseEther("100"),
    });
    await fund.wait();
    await withService({ EXECUTOR_PRIVATE_KEY: executor.privateKey, LOG_LEVEL: "debug" }, async (run) => {
      const task = await run("funded");
      assert.equal(task.status, "succeeded", JSON.stringify(task.stages));
      assert.deepEqual(task.program.rolesAtBirth.factory.EXECUTOR_ROLE, [executor.address]);
      assert.ok((await node.provider.getTransactionCount(executor.address)) > 0);
    });
  });

  it("executorKey_neverAppears_inALogLine_aResponse_orTheDatabase", () => {
    assert.equal(keys.length, 2);
    assert.ok(
      seen.some((l) => l.includes("onboarding task failed")),
      "failures were logged",
    );
    assert.ok(
      seen.some((l) => l.includes("onboarding task succeeded")),
      "successes were logged",
    );
    const text = seen.join("\n").toLowerCase();
    for (const key of keys) {
      assert.equal(text.includes(key.slice(2).toLowerCase()), false, "a private key leaked");
    }
  });
});
