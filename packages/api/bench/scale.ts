/**
 * `pnpm bench:scale`: API instances and workers as separate processes on one PostgreSQL, as an
 * operator scales out, on a local node mining one block per second. In one run:
 * (1) build throughput (POST /studio/sdk/v1/tx/psp/mint) with 1, 2 and 3 API instances, the
 * connections (BENCH_CONNECTIONS, 30) spread over them for BENCH_SECONDS (10) each, with the CPU
 * each group of processes spent per build (API instances, the node, PostgreSQL's processes);
 * (2) a key's rate limit across three instances: RATE_LIMIT_PER_MINUTE_KEY (BENCH_LIMIT, 300)
 * answered 200 exactly that many times out of twice as many requests spread over them;
 * (3) onboarding: BENCH_QUEUE (40) deploys posted through the three instances, run by two worker
 * processes (one holds the chain's executor lease, the other waits to take it over):
 * programs per minute, CPU per program, and one program per brand on chain, each deployed once.
 * It prints what saturated first: the group of processes that spent the most CPU per second.
 * BENCH_PG_URL (or PG_TEST_URL; default postgres://postgres@127.0.0.1:5432/postgres) is the
 * server: the bench creates its own database there and drops it at the end.
 */
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import autocannon from "autocannon";
import { Contract } from "ethers";
import pg from "pg";
import { INTERFACES } from "@points/contracts/program/abi";
import { actors, deployProgram, fundedCampaign, startNode } from "@points/testkit";
import { ApiKeys, ProgramRegistry, migrate, openDb } from "../src/index.js";
import { startApiProcess, type ApiProcess } from "./helpers/apiProcess.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import { onboardingBody } from "../test/helpers/onboarding.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 30);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 300);
const QUEUE = Number(process.env.BENCH_QUEUE ?? 40);
const SERVER = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TICK = 100; // clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ)
const log = (s: string) => process.stderr.write(`${s}\n`);
const load = () => loadavg()[0]!.toFixed(2);

/** CPU seconds (user + system) spent so far by the processes `match` picks from /proc. */
function cpuSeconds(match: (pid: number, comm: string, pgrp: number) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    // After the name: state, ppid, pgrp, ..., utime (14th field of the line), stime (15th).
    if (match(pid, comm, Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICK;
}

async function main() {
  const dbName = `points_bench_scale_${process.pid}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(SERVER);
  url.pathname = `/${dbName}`;
  const DATABASE_URL = url.toString();
  const node = await startNode();
  const procs: ApiProcess[] = [];
  try {
    const { record, usdc } = await deployProgram(node.provider);
    const { campaignId } = await fundedCampaign(node.provider, record, usdc);
    // The fixture mined per transaction; from here on, a block a second.
    await node.setAutomine(false);
    await node.setIntervalMining(1000);
    const { brand, alice } = actors(node.provider);
    const db = await openDb({ dataDir: "memory://", databaseUrl: DATABASE_URL });
    await migrate(db);
    await new ProgramRegistry(db).insert(record);
    const { key } = await new ApiKeys(db).create("bench", ["build", "read", "deploy"]);
    // A key of its own for (2): the budget of the first one is spent by (1) in this minute.
    const { key: limitedKey } = await new ApiKeys(db).create("bench-limit", ["read"]);
    const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };
    const chains = JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: 1000 }]);
    const common = { DATABASE_URL, CHAINS: chains, LEDGER: "off", WEBHOOKS: "off", DEPLOY_QUOTA_PER_DAY: "100000" };
    const serve = (perKey: string) =>
      startApiProcess("serve", {
        ...process.env,
        LOG_LEVEL: "warn",
        ...common,
        WORKER: "off",
        RATE_LIMIT_PER_MINUTE_IP: "100000000",
        RATE_LIMIT_PER_MINUTE_KEY: perKey,
      });

    const ids = () => new Set(procs.map((p) => p.child.pid!));
    const groups = {
      api: () => cpuSeconds((pid) => ids().has(pid)),
      node: () => cpuSeconds((_, __, pgrp) => pgrp === node.pid),
      postgres: () => cpuSeconds((_, comm) => comm === "postgres" || comm.startsWith("postgres:")),
    };
    const sample = () => Object.fromEntries(Object.entries(groups).map(([k, f]) => [k, f()])) as Record<string, number>;
    const spent = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(Object.keys(a).map((k) => [k, b[k]! - a[k]!])) as Record<string, number>;

    // (1) Builds over 1, 2 and 3 instances.
    const mintBody = JSON.stringify({
      campaignId,
      to: alice.address,
      amount: "1000000000000000000",
      from: brand.address,
    });
    const builds: {
      instances: number;
      rps: number;
      errors: number;
      cpuMsPerBuild: Record<string, number>;
      load: string;
    }[] = [];
    const apis: ApiProcess[] = [];
    for (let n = 1; n <= 3; n++) {
      const api = await serve("100000000");
      apis.push(api);
      procs.push(api);
      const check = await fetch(`${api.url}/studio/sdk/v1/tx/psp/mint`, { method: "POST", headers, body: mintBody });
      if (check.status !== 200) throw new Error(`build on instance ${n}: ${check.status} ${await check.text()}`);
      log(`(1) builds on ${n} instance(s), ${SECONDS} s ...`);
      const before = sample();
      const results = await Promise.all(
        apis.map((a) =>
          autocannon({
            url: `${a.url}/studio/sdk/v1/tx/psp/mint`,
            method: "POST",
            headers,
            body: mintBody,
            connections: Math.max(1, Math.round(CONNECTIONS / n)),
            duration: SECONDS,
          }),
        ),
      );
      const cpu = spent(before, sample());
      const requests = results.reduce((s, r) => s + r.requests.total, 0);
      const errors = results.reduce((s, r) => s + r.errors + r.non2xx, 0);
      const perBuild = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, (v * 1000) / requests]));
      builds.push({ instances: n, rps: requests / SECONDS, errors, cpuMsPerBuild: perBuild, load: load() });
    }

    // (2) One key's budget across three fresh instances with a real limit.
    log(`(2) rate limit ${LIMIT}/min per key across three instances ...`);
    for (const a of apis) await a.stop();
    procs.length = 0;
    const limited = await Promise.all([0, 1, 2].map(() => serve(String(LIMIT))));
    procs.push(...limited);
    // The key's window opens at its first request and lasts a minute: the burst must end inside it.
    const burstStart = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) =>
        fetch(`${limited[i % 3]!.url}/api/v1/contracts/factories/${record.factory}`, {
          headers: { authorization: `Bearer ${limitedKey}` },
        }).then((r) => r.status),
      ),
    );
    const burstSeconds = (performance.now() - burstStart) / 1000;
    const ok = statuses.filter((s) => s === 200).length;
    const limitedCount = statuses.filter((s) => s === 429).length;
    for (const a of limited) await a.stop();
    procs.length = 0;

    // (3) Onboarding through three instances and two workers.
    log(`(3) onboarding: ${QUEUE} deploys, three instances, two workers ...`);
    const front = await Promise.all([0, 1, 2].map(() => serve("100000000")));
    const workers = await Promise.all(
      [0, 1].map(() =>
        startApiProcess("worker", { ...process.env, LOG_LEVEL: "warn", ...common, WORKER_POLL_MS: "100" }),
      ),
    );
    procs.push(...front, ...workers);
    const post = async (brandName: string, i: number) => {
      const res = await fetch(`${front[i % 3]!.url}/api/v1/client-onboarding/deploy`, {
        method: "POST",
        headers,
        body: JSON.stringify(onboardingBody(brandName, brand.address)),
      });
      if (res.status !== 202) throw new Error(`POST ${brandName}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { taskId: string } }).data.taskId;
    };
    const waitFor = async (taskIds: string[]) => {
      for (;;) {
        const rows = await db.query<{ status: string; n: string }>(
          "SELECT status, count(*) AS n FROM onboarding_tasks WHERE id = ANY($1) GROUP BY status",
          [taskIds],
        );
        const count = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
        if (count("failed") > 0) throw new Error(`${count("failed")} task(s) failed`);
        if (count("succeeded") === taskIds.length) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const executor = actors(node.provider).executor.address;
    await waitFor([await post("warmup0", 0)]); // the release and a first program
    // What one program costs the executor in transactions, measured, not assumed.
    const n0 = await node.provider.getTransactionCount(executor);
    await waitFor([await post("warmup1", 1)]);
    const perProgram = (await node.provider.getTransactionCount(executor)) - n0;
    const nonceBefore = await node.provider.getTransactionCount(executor);
    const before = sample();
    const t0 = performance.now();
    const brands = Array.from({ length: QUEUE }, (_, i) => `scale${i}`);
    await waitFor(await Promise.all(brands.map(post)));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = spent(before, sample());
    const release = (await new DbManifestStore(db).getRelease(31337n))!;
    const pf = new Contract(release.programFactory, INTERFACES.programFactory, node.provider);
    const programs = new Set<string>();
    for (const b of brands) programs.add(String((await pf.programOf(b))[0]));
    const sent = (await node.provider.getTransactionCount(executor)) - nonceBefore;
    await db.close();

    console.log(`\nbench:scale on ${cpus().length} cores; PostgreSQL ${url.host}; 1 s blocks`);
    console.log("\n(1) pSP mint builds, connections spread over the instances");
    console.log("instances  req/s   errors  CPU ms/build: api  node  postgres   load");
    const one = builds[0]!.rps;
    for (const b of builds) {
      const c = b.cpuMsPerBuild;
      console.log(
        `${String(b.instances).padStart(9)}  ${b.rps.toFixed(0).padStart(5)} (${(b.rps / one).toFixed(2)}x)  ${String(b.errors).padStart(4)}  ${c.api!.toFixed(2).padStart(16)}  ${c.node!.toFixed(2).padStart(4)}  ${c.postgres!.toFixed(2).padStart(8)}   ${b.load}`,
      );
    }
    const last = builds.at(-1)!.cpuMsPerBuild;
    const first = Object.entries(last).sort((a, b) => b[1] - a[1])[0]!;
    console.log(`most CPU per build at 3 instances: ${first[0]} (${first[1].toFixed(2)} ms)`);
    console.log(
      `\n(2) one key, ${LIMIT}/min, ${2 * LIMIT} requests over three instances: ${ok} x 200, ${limitedCount} x 429 in ${burstSeconds.toFixed(1)} s (${burstSeconds >= 60 ? "longer than the window: inconclusive" : ok === LIMIT ? "holds exactly" : "DOES NOT HOLD"})`,
    );
    console.log(`\n(3) onboarding, ${QUEUE} deploys through three instances, two workers (load ${load()})`);
    console.log(
      `    ${((QUEUE / seconds) * 60).toFixed(1)} programs/min; CPU per program: api ${(cpu.api! / QUEUE).toFixed(3)} s (instances and workers), node ${(cpu.node! / QUEUE).toFixed(3)} s, postgres ${(cpu.postgres! / QUEUE).toFixed(3)} s`,
    );
    const once = sent === perProgram * QUEUE;
    console.log(
      `    ${programs.size} distinct programs for ${QUEUE} brands; the executor sent ${sent} transactions, ${perProgram} per program as a lone deploy does (${once ? "nothing twice" : "NOT once each"})`,
    );
    if (ok !== LIMIT || programs.size !== QUEUE || !once || builds.some((b) => b.errors > 0)) process.exitCode = 1;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await node.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
