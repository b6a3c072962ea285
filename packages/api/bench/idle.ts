/**
 * `pnpm bench:idle`: what an API instance costs when nobody calls it. The service runs in its own
 * process, as deployed, on its embedded database (PGlite), following one registered program on a
 * local node that mines a block every second (an idle chain still makes blocks). Side by side in
 * one run, in turn, BENCH_ROUNDS (2) times, each BENCH_SECONDS (30) after a settle (BENCH_SETTLE_SECONDS, 5):
 * (1) every background job inline (onboarding worker, ledger indexer, webhook dispatcher, desk,
 * source verification): the default; (2)-(4) the same with one job off (the worker takes the desk
 * and source verification with it), so each job's share shows; (1') every job off (HTTP only),
 * the process's own floor; (5)-(7) one job alone (the shares overlap: the jobs share the chain's
 * endpoint pool and the database, so what one job costs alone is more than what it adds to the others). The figure is the process's CPU time (user + system, from /proc) per
 * second of wall time, in % of one core. Goal: (1) under 1%.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { deployProgram, startNode } from "@points/testkit";
import { ProgramRegistry, migrate, openDb } from "../src/index.js";
import { startApiProcess, type ApiProcess } from "./helpers/apiProcess.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * BENCH_SETTLE_SECONDS (5): how long a process runs before its window. The first minutes include
 * V8 compiling the hot code (TurboFan on background threads, PGlite's WebAssembly tier-up), which
 * an instance that has run for a while no longer pays.
 */
const SETTLE_MS = 1000 * Number(process.env.BENCH_SETTLE_SECONDS ?? 5);
const BLOCK_MS = 1_000;
const GOAL_PERCENT = 1;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const log = (s: string) => process.stderr.write(`${s}\n`);

/** The process's CPU seconds so far (user + system), read from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at field 3; utime, stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** What runs in each measured process: jobs turned off (the desk and source verification run where the worker does). */
const ALL_VARIANTS: [string, Record<string, string>][] = [
  ["(1)  every job inline", {}],
  ["(2)  ledger indexer off", { LEDGER: "off" }],
  ["(3)  webhook dispatcher off", { WEBHOOKS: "off" }],
  ["(4)  worker, desk, verify off", { WORKER: "off" }],
  ["(1') HTTP only", { WORKER: "off", LEDGER: "off", WEBHOOKS: "off" }],
  ["(5)  ledger indexer only", { WORKER: "off", WEBHOOKS: "off" }],
  ["(6)  webhook dispatcher only", { WORKER: "off", LEDGER: "off" }],
  ["(7)  worker, desk, verify only", { LEDGER: "off", WEBHOOKS: "off" }],
];
/** BENCH_VARIANTS: which of them to run, by position (e.g. "1" with BENCH_API_NODE_ARGS=--cpu-prof to profile (1)). */
const VARIANTS = process.env.BENCH_VARIANTS
  ? process.env.BENCH_VARIANTS.split(",").map((n) => ALL_VARIANTS[Number(n) - 1]!)
  : ALL_VARIANTS;

/** The API as deployed, on the bench's embedded database, with `off` jobs turned off. */
function startApi(nodeUrl: string, dataDir: string, off: Record<string, string>): Promise<ApiProcess> {
  const { DATABASE_URL: _, ...env } = process.env; // the embedded database, whatever the shell exports
  return startApiProcess("serve", {
    ...env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: BLOCK_MS }]),
    ...off,
  });
}

/** % of one core the API used over the window, with `off` jobs turned off. */
async function measure(nodeUrl: string, dataDir: string, off: Record<string, string>): Promise<number> {
  const api = await startApi(nodeUrl, dataDir, off);
  const { child } = api;
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const cpu0 = cpuSeconds(child.pid!);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const cpu = cpuSeconds(child.pid!) - cpu0;
    return (100 * cpu) / ((performance.now() - t0) / 1000);
  } finally {
    await api.stop();
  }
}

async function main() {
  const node = await startNode();
  const dataDir = mkdtempSync(join(tmpdir(), "points-bench-idle-"));
  try {
    const { record } = await deployProgram(node.provider);
    const db = await openDb({ dataDir });
    await migrate(db);
    await new ProgramRegistry(db).insert(record);
    await db.close();
    await node.setAutomine(false);
    await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);

    const figures = VARIANTS.map((): number[] => []);
    const loads: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      log(`round ${r + 1}/${ROUNDS}: ${VARIANTS.length} processes one after another, ${SECONDS} s each ...`);
      loads.push(loadavg()[0]);
      for (const [i, [, off]] of VARIANTS.entries()) figures[i]!.push(await measure(node.url, dataDir, off));
      loads.push(loadavg()[0]);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `\nIdle API on PGlite, one program followed, a block every ${BLOCK_MS} ms, ${SECONDS} s windows after ${SETTLE_MS / 1000} s`,
    );
    console.log(
      `load average (1 min) during the run: ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
    );
    console.log("CPU of one core (each round, then the mean):");
    for (const [i, [name]] of VARIANTS.entries()) {
      const xs = figures[i]!;
      console.log(`${name.padEnd(32)} ${xs.map((x) => `${x.toFixed(2)}%`).join(", ")}  mean ${mean(xs).toFixed(2)}%`);
    }
    const all = mean(figures[0]!);
    const ok = all < GOAL_PERCENT;
    console.log(`${ok ? "PASS" : "MISS"}  an idle instance uses < ${GOAL_PERCENT}% of a core (${all.toFixed(2)}%)`);
    if (!ok) process.exitCode = 1;
  } finally {
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
