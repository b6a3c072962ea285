/**
 * `pnpm bench:api`: the API against a direct-ethers client, same node, same work, same run.
 * (1) POST /studio/sdk/v1/tx/psp/mint vs (1') populate + estimate + nonce + fees + serialize;
 * (2) GET /api/v1/evm/factory/state vs (2') the same plain reads.
 * Each scenario runs BENCH_SECONDS (20) in all, split over BENCH_ROUNDS (4) rounds that take every
 * scenario in turn, so load that drifts during the run moves both sides alike; BENCH_CONNECTIONS
 * (50). Beside throughput: CPU per request of the serving process (the API's, or this process's
 * for the ethers client) and of the node, which hold on a loaded machine where throughput does
 * not. The API runs in its own process, as deployed, with rate limits raised so the limiter does
 * not answer for the chain.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { actors, deployProgram, fundedCampaign, startNode } from "@points/testkit";
import { ApiKeys, ProgramRegistry, migrate, openDb } from "../src/index.js";
import { baselineClient, runWorkers, type Figures } from "./baseline.js";
import { startApiProcess, type ApiProcess } from "./helpers/apiProcess.js";
import { groupCpuSeconds, processCpuSeconds } from "./helpers/cpu.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

// The embedded database the bench prepared, whatever the shell exports.
const withoutDatabaseUrl = ({ DATABASE_URL: _, ...env }: NodeJS.ProcessEnv) => env;

/** The API as deployed, on the bench's embedded database, rate limits raised out of the way. */
const startApi = (nodeUrl: string, dataDir: string) =>
  startApiProcess("serve", {
    ...withoutDatabaseUrl(process.env),
    DATA_DIR: dataDir,
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: 1000 }]),
    RATE_LIMIT_PER_MINUTE_IP: "100000000",
    RATE_LIMIT_PER_MINUTE_KEY: "100000000",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  });

async function cannon(opts: autocannon.Options, seconds: number): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
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
  let api: ApiProcess | undefined;
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
    api = await startApi(node.url, dataDir);

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
    const window = SECONDS / ROUNDS;
    log(`running 4 scenarios x ${ROUNDS} rounds x ${window} s at ${CONNECTIONS} connections, interleaved ...`);
    const runs: Record<Scenario, Window[]> = { apiBuild: [], baseBuild: [], apiRead: [], baseRead: [] };
    const loads: number[] = [loadavg()[0]];
    const apiPid = api.child.pid!;
    for (let r = 0; r < ROUNDS; r++) {
      // Each round runs every scenario once, so load that drifts during the run moves both sides alike.
      runs.apiBuild.push(await measured(apiPid, node.pid, () => cannon(mintReq, window)));
      runs.baseBuild.push(await measured(process.pid, node.pid, () => runWorkers(buildOp, CONNECTIONS, window)));
      runs.apiRead.push(await measured(apiPid, node.pid, () => cannon(stateReq, window)));
      runs.baseRead.push(
        await measured(process.pid, node.pid, () => runWorkers(base.readFactoryState, CONNECTIONS, window)),
      );
      loads.push(loadavg()[0]);
      log(`  round ${r + 1}/${ROUNDS} done`);
    }
    base.provider.destroy();
    const [apiBuild, baseBuild, apiRead, baseRead] = (["apiBuild", "baseBuild", "apiRead", "baseRead"] as const).map(
      (k) => combine(runs[k]),
    ) as [Combined, Combined, Combined, Combined];

    report(
      [
        ["(1)  API  POST /studio/sdk/v1/tx/psp/mint", apiBuild, baseBuild],
        ["(1') ethers populate+estimate+nonce+fees", baseBuild, undefined],
        ["(2)  API  GET /api/v1/evm/factory/state", apiRead, baseRead],
        ["(2') ethers factory-state reads", baseRead, undefined],
      ],
      loads,
    );
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

function report(rows: [string, Combined, Combined | undefined][], loads: number[]) {
  const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  const ratio = (a: number, b: number | undefined) => (b ? `${f(a / b, 2)}x` : "");
  console.log(
    `\n${CONNECTIONS} connections/workers, ${ROUNDS} interleaved rounds of ${f(SECONDS / ROUNDS)} s per scenario, ` +
      `Hardhat node on localhost; load average (1 min) ${f(Math.min(...loads), 2)}-${f(Math.max(...loads), 2)} on ${cpus().length} cores`,
  );
  console.log(
    [
      "scenario".padEnd(44),
      "req/s".padStart(8),
      "p50 ms".padStart(8),
      "p99 ms".padStart(8),
      "errors".padStart(7),
      "req/s API/eth".padStart(14),
      "CPU ms/req".padStart(11),
      "node CPU ms/req".padStart(16),
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
        f(x.cpuMsPerRequest, 2).padStart(11),
        f(x.nodeCpuMsPerRequest, 2).padStart(16),
      ].join(" "),
    );
  }
  console.log(
    "CPU ms/req: the API process's CPU per request for API rows, this bench process's (the ethers client) for ethers rows; " +
      "node: the Hardhat node's, per request.\n",
  );
}

type Scenario = "apiBuild" | "baseBuild" | "apiRead" | "baseRead";

/** One window of one scenario, with the CPU the serving process and the node used during it. */
interface Window extends Figures {
  seconds: number;
  cpu: number;
  nodeCpu: number;
}

interface Combined extends Figures {
  cpuMsPerRequest: number;
  nodeCpuMsPerRequest: number;
}

async function measured(pid: number, nodePgid: number, run: () => Promise<Figures>): Promise<Window> {
  const cpu0 = processCpuSeconds(pid);
  const node0 = groupCpuSeconds(nodePgid);
  const t0 = performance.now();
  const figures = await run();
  return {
    ...figures,
    seconds: (performance.now() - t0) / 1000,
    cpu: processCpuSeconds(pid) - cpu0,
    nodeCpu: groupCpuSeconds(nodePgid) - node0,
  };
}

/** The windows of a scenario as one: totals over the rounds, the median p50 and the mean p99. */
function combine(ws: Window[]): Combined {
  const requests = ws.reduce((a, w) => a + w.requests, 0);
  const seconds = ws.reduce((a, w) => a + w.seconds, 0);
  const p50s = ws.map((w) => w.p50).sort((a, b) => a - b);
  return {
    requests,
    rps: requests / seconds,
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: ws.reduce((a, w) => a + w.p99, 0) / ws.length,
    errors: ws.reduce((a, w) => a + w.errors, 0),
    cpuMsPerRequest: (1000 * ws.reduce((a, w) => a + w.cpu, 0)) / requests,
    nodeCpuMsPerRequest: (1000 * ws.reduce((a, w) => a + w.nodeCpu, 0)) / requests,
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
