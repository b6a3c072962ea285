import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { placeholderProgram } from "./helpers/records.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createService, loadConfig, memoryDbTemplate, type Service } from "../src/index.js";
import { createLogger } from "../src/server/http/logger.js";
import { createRunner } from "../src/workers/onboarding/runner.js";
import type { Task } from "../src/core/onboarding/tasks.js";
import { send } from "./helpers/http.js";

const USER = "rpcuser";
const PASS = "rpc-pass-8f3k";
const PATH_KEY = "path-key-71ab";
const QUERY_KEY = "query-key-5c2d";
const SECRETS = [PASS, PATH_KEY, QUERY_KEY];
const KEY = `0x${"1".repeat(64)}`;
const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** A hostile or broken JSON-RPC endpoint: answers eth_chainId with `chainId`, everything else with `fail`. */
async function fakeRpc() {
  const state = { chainId: 31337, fail: 500, methods: [] as string[] };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const calls = [JSON.parse(body)].flat() as { id: number; method: string }[];
      state.methods.push(...calls.map((c) => c.method));
      if (calls.every((c) => c.method === "eth_chainId")) {
        const out = calls.map((c) => ({ jsonrpc: "2.0", id: c.id, result: `0x${state.chainId.toString(16)}` }));
        res.setHeader("content-type", "application/json");
        return void res.end(JSON.stringify(Array.isArray(JSON.parse(body)) ? out : out[0]));
      }
      res.statusCode = state.fail;
      res.end("upstream exploded");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${USER}:${PASS}@127.0.0.1:${port}/v3/${PATH_KEY}?apikey=${QUERY_KEY}`;
  return { state, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function start(rpcUrl: string, lines: string[], chainId = 31337) {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const config = loadConfig({
    PORT: "0",
    DATA_DIR: "memory://",
    RPC_TIMEOUT_MS: "1000",
    EXECUTOR_PRIVATE_KEY: KEY,
    WORKER: "off",
    // The pool's periodic chain id check stays out of the counted calls, however slow the machine.
    CHAINS: JSON.stringify([{ chainId, name: "Hosted", rpcUrl, blockTimeMs: 200, chainIdCheckMs: 3_600_000 }]),
  });
  return createService(config, { logger: createLogger("debug", sink), memoryDbSeed: await memoryDbTemplate() });
}

const task = (chainId: string): Task => ({
  id: "00000000-0000-4000-8000-000000000001",
  owner: null,
  request: {
    brand: "acme",
    chainId: Number(chainId),
    organization: { name: "Acme" },
    token: { name: "Acme Points", symbol: "ACME" },
    deployer: A,
  } as unknown as Task["request"],
  brand: "acme",
  chainId,
  status: "running",
  attempts: 1,
  error: null,
  predicted: null,
  programId: null,
  leaseOwner: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});

const assertNoSecret = (where: string, text: string) => {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} holds an RPC credential: ${text}`);
};

describe("safety: the service checks the chain id its RPC serves", () => {
  let rpc: Awaited<ReturnType<typeof fakeRpc>>;
  before(async () => {
    rpc = await fakeRpc();
  });
  after(async () => {
    await rpc?.close();
  });

  it("rpcServingAnotherChain_atStart_refusesToStart", async () => {
    rpc.state.chainId = 1;
    const lines: string[] = [];
    await assert.rejects(start(rpc.url, lines), {
      message: "chain 31337 (Hosted): its RPC serves chain 1; fix CHAINS before anything is signed",
    });
  });

  it("rpcSwappedToAnotherChainAfterStart_deployIsRefusedBeforeAnythingIsSent", async () => {
    rpc.state.chainId = 31337;
    const lines: string[] = [];
    const service: Service = await start(rpc.url, lines);
    try {
      rpc.state.chainId = 1;
      rpc.state.methods = [];
      const run = createRunner(service.ctx);
      await assert.rejects(run(task("31337"), new AbortController().signal), {
        name: "TaskFailure",
        message: "chain 31337 (Hosted): its RPC serves chain 1; fix CHAINS before anything is signed",
      });
      assert.deepEqual(rpc.state.methods, ["eth_chainId"]);
    } finally {
      await service.close();
    }
  });
});

describe("safety: an RPC URL's credentials never leave the configuration", () => {
  let rpc: Awaited<ReturnType<typeof fakeRpc>>;
  let service: Service;
  const lines: string[] = [];
  before(async () => {
    rpc = await fakeRpc();
    service = await start(rpc.url, lines);
    await service.ctx.programs.insert(placeholderProgram());
  });
  after(async () => {
    await service?.close();
    await rpc?.close();
  });

  it("faultyHostedRpc_errorResponseAndLogs_holdNoCredential", async () => {
    const url = await service.listen();
    for (const status of [500, 401, 404]) {
      rpc.state.fail = status;
      const res = await send(url, "GET", `/api/v1/evm/balance/${A}`);
      assert.ok(res.status >= 500, res.text);
      assertNoSecret("the response", res.text);
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      lines.some((l) => l.includes("upstream exploded") || l.includes('"level":50')),
      "the failure was logged",
    );
    assertNoSecret("the log", lines.join("\n"));
  });

  it("faultyHostedRpc_failedDeploy_taskRecordHoldsNoCredential", async () => {
    rpc.state.fail = 500;
    const run = createRunner(service.ctx);
    const failure = await run(task("31337"), new AbortController().signal).then(
      () => assert.fail("the deploy succeeded on a broken RPC"),
      (e: Error & { taskError?: unknown }) => e,
    );
    assert.equal(failure.name, "TaskFailure");
    assertNoSecret("the task error", JSON.stringify(failure.taskError));
    assertNoSecret("the task error's message", failure.message);
  });
});
