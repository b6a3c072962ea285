/**
 * `pnpm bench:api`: the API against a direct-ethers client, same node, same work, same run.
 * (1) POST /studio/sdk/v1/tx/psp/mint vs (1') populate + estimate + nonce + fees + serialize;
 * (2) GET /api/v1/evm/factory/state vs (2') the same plain reads.
 * BENCH_SECONDS (20) and BENCH_CONNECTIONS (50) tune the run; the API runs in its own process,
 * as deployed, with rate limits raised so the limiter does not answer for the chain.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { actors, deployProgram, freePort, fundedCampaign, startNode } from "@points/testkit";
import { ApiKeys, ProgramRegistry, migrate, openDb } from "../src/index.js";
import { baselineClient, runWorkers, type Figures } from "./baseline.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const API_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// The embedded database the bench prepared, whatever the shell exports.
const withoutDatabaseUrl = ({ DATABASE_URL: _, ...env }: NodeJS.ProcessEnv) => env;

async function startApiProcess(nodeUrl: string, dataDir: string) {
  const port = await freePort();
  // BENCH_API_NODE_ARGS: extra Node flags for the API process only (e.g. --cpu-prof).
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/cli/main.ts", "serve"], {
    cwd: API_DIR,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...withoutDatabaseUrl(process.env),
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: 1000 }]),
      RATE_LIMIT_PER_MINUTE_IP: "100000000",
      RATE_LIMIT_PER_MINUTE_KEY: "100000000",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      if (child.exitCode !== null || i > 240) throw new Error("the API did not start");
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((r) => {
        child.once("exit", () => r());
        child.kill("SIGTERM");
      }),
  };
}

async function cannon(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    requests: r.requests.total,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

async function main() {
  const node = await startNode();
  const dataDir = mkdtempSync(join(tmpdir(), "points-bench-"));
  let api: Awaited<ReturnType<typeof startApiProcess>> | undefined;
  try {
    const { record, usdc } = await deployProgram(node.provider);
    const { campaignId } = await fundedCampaign(node.provider, record, usdc);
    const { brand, alice } = actors(node.provider);

    // Register the program and a key in the API's embedded database, then start the service on it.
    const db = await openDb({ dataDir });
    await migrate(db);
    await new ProgramRegistry(db).insert(record);
    const { key } = await new ApiKeys(db).create("bench");
    await db.close();
    api = await startApiProcess(node.url, dataDir);

    const mintBody = JSON.stringify({
      campaignId,
      to: alice.address,
      amount: "1000000000000000000",
      from: brand.address,
    });
    const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
    const mintReq: autocannon.Options = {
      url: `${api.url}/studio/sdk/v1/tx/psp/mint`,
      method: "POST",
      headers,
      body: mintBody,
    };
    const stateReq: autocannon.Options = { url: `${api.url}/api/v1/evm/factory/state` };
    const base = baselineClient(node.url, record);
    const buildOp = () => base.buildPspMint(brand.address, campaignId, alice.address, 10n ** 18n);

    // Warm-up: both sides answer correctly before anything is measured.
    const check = await fetch(mintReq.url as string, { method: "POST", headers, body: mintBody });
    if (check.status !== 200) throw new Error(`API mint build failed: ${check.status} ${await check.text()}`);
    if ((await fetch(stateReq.url as string)).status !== 200) throw new Error("API factory state failed");
    await buildOp();
    await base.readFactoryState();

    const log = (s: string) => process.stderr.write(`${s}\n`);
    log(`running 4 scenarios x ${SECONDS} s at ${CONNECTIONS} connections ...`);
    const apiBuild = await cannon(mintReq);
    log("  (1) API pSP mint build done");
    const baseBuild = await runWorkers(buildOp, CONNECTIONS, SECONDS);
    log("  (1') ethers pSP mint build done");
    const apiRead = await cannon(stateReq);
    log("  (2) API factory state done");
    const baseRead = await runWorkers(() => base.readFactoryState(), CONNECTIONS, SECONDS);
    log("  (2') ethers factory state done");
    base.provider.destroy();

    report([
      ["(1)  API  POST /studio/sdk/v1/tx/psp/mint", apiBuild, baseBuild],
      ["(1') ethers populate+estimate+nonce+fees", baseBuild, undefined],
      ["(2)  API  GET /api/v1/evm/factory/state", apiRead, baseRead],
      ["(2') ethers factory-state reads", baseRead, undefined],
    ]);
    const targets = [
      ["API build throughput >= ethers baseline", apiBuild.rps >= baseBuild.rps],
      ["API build p99 < 3x median", apiBuild.p99 < 3 * apiBuild.p50],
      ["API read p99 < 3x median", apiRead.p99 < 3 * apiRead.p50],
      ["zero API errors", apiBuild.errors === 0 && apiRead.errors === 0],
    ] as const;
    for (const [name, ok] of targets) console.log(`${ok ? "PASS" : "MISS"}  ${name}`);
    if (targets.some(([, ok]) => !ok)) process.exitCode = 1;
  } finally {
    await api?.stop();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(rows: [string, Figures, Figures | undefined][]) {
  const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  const ratio = (a: number, b: number | undefined) => (b ? `${f(a / b, 2)}x` : "");
  console.log(`\n${CONNECTIONS} connections/workers, ${SECONDS} s each, Hardhat node on localhost`);
  console.log(
    [
      "scenario".padEnd(44),
      "req/s".padStart(8),
      "p50 ms".padStart(8),
      "p99 ms".padStart(8),
      "errors".padStart(7),
      "req/s API/eth".padStart(14),
      "p50 API/eth".padStart(12),
    ].join(" "),
  );
  for (const [name, x, vs] of rows) {
    console.log(
      [
        name.padEnd(44),
        f(x.rps).padStart(8),
        f(x.p50).padStart(8),
        f(x.p99).padStart(8),
        String(x.errors).padStart(7),
        ratio(x.rps, vs?.rps).padStart(14),
        ratio(x.p50, vs?.p50).padStart(12),
      ].join(" "),
    );
  }
  console.log("");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
