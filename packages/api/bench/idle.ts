/**
 * `pnpm bench:idle`: what an API instance costs when nobody calls it. The service runs as deployed
 * (`node dist/cli/main.js serve`: run `pnpm build` first), each instance in its own process on its
 * own embedded database (PGlite), following one registered program on a local node that mines a
 * block every second (an idle chain still makes blocks). Every variant runs at the same time, so
 * the machine's load and the chain's blocks are the same for all: (1) every background job inline
 * (onboarding worker, ledger indexer, webhook dispatcher, desk, source verification): the default;
 * (2)-(4) the same with one job off (the worker takes the desk and source verification with it);
 * (1') every job off (HTTP only), the process's own floor; (5)-(7) one job alone (the shares
 * overlap: what one job costs alone is more than what it adds to the others).
 *
 * After BENCH_SETTLE_SECONDS (30: V8's tier-up and PGlite's WebAssembly compile are start-up, not
 * idling), the processes' CPU time (user + system, from /proc) is read every BENCH_BUCKET_SECONDS
 * (15) for BENCH_SECONDS (120). The figure is the median bucket in % of one core: a process's
 * periodic housekeeping (a major GC, a checkpoint) lands in one bucket and moves the mean, which
 * is printed beside it. Goal: (1) under 1%.
 *
 * BENCH_BASELINE (a folder of the package holding another build's `dist`, e.g. `dist-base`) runs
 * each variant of that build beside this one's: the before/after of a change in one run
 * (packages/api/README.md#benchmarks says how to make it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { deployProgram, freePort, startNode } from "@points/testkit";
import { ProgramRegistry, migrate, openDb } from "../src/index.js";
import { packageRoot } from "../src/core/packageRoot.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const BUCKET_SECONDS = Number(process.env.BENCH_BUCKET_SECONDS ?? 15);
const SETTLE_MS = 1000 * Number(process.env.BENCH_SETTLE_SECONDS ?? 30);
const BASELINE = process.env.BENCH_BASELINE;
const BLOCK_MS = 1_000;
const GOAL_PERCENT = 1;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const PKG = packageRoot(import.meta.url);
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
/** BENCH_VARIANTS: which of them to run, by position (e.g. "1,6" with BENCH_API_NODE_ARGS=--cpu-prof to profile them). */
const VARIANTS = process.env.BENCH_VARIANTS
  ? process.env.BENCH_VARIANTS.split(",").map((n) => ALL_VARIANTS[Number(n) - 1]!)
  : ALL_VARIANTS;

interface Instance {
  name: string;
  child: ChildProcess;
  dataDir: string;
  buckets: number[];
}

/** One API process of the build in `dist` with `off` jobs turned off, on its own database following `record`. */
async function startInstance(
  name: string,
  dist: string,
  nodeUrl: string,
  off: Record<string, string>,
  record: Parameters<ProgramRegistry["insert"]>[0],
): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), "points-bench-idle-"));
  const db = await openDb({ dataDir });
  await migrate(db);
  await new ProgramRegistry(db).insert(record);
  await db.close();
  const { DATABASE_URL: _, ...env } = process.env; // the embedded database, whatever the shell exports
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(PKG, dist, "cli/main.js"), "serve"], {
    cwd: PKG,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: BLOCK_MS }]),
      ...off,
    },
  });
  return { name, child, dataDir, buckets: [] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const node = await startNode();
  const instances: Instance[] = [];
  try {
    const { record } = await deployProgram(node.provider);
    await node.setAutomine(false);
    await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);
    const builds: [string, string][] = BASELINE
      ? [
          ["", "dist"],
          [" (baseline)", BASELINE],
        ]
      : [["", "dist"]];
    for (const [name, off] of VARIANTS) {
      for (const [suffix, dist] of builds)
        instances.push(await startInstance(name + suffix, dist, node.url, off, record));
    }
    log(`${instances.length} processes at once: ${SETTLE_MS / 1000} s to settle, then ${SECONDS} s ...`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const loads = [loadavg()[0]];
    let last = instances.map((i) => cpuSeconds(i.child.pid!));
    let t = performance.now();
    for (let b = 0; b < Math.max(1, Math.round(SECONDS / BUCKET_SECONDS)); b++) {
      await new Promise((r) => setTimeout(r, BUCKET_SECONDS * 1000));
      const now = instances.map((i) => cpuSeconds(i.child.pid!));
      const wall = (performance.now() - t) / 1000;
      t = performance.now();
      instances.forEach((inst, i) => inst.buckets.push((100 * (now[i]! - last[i]!)) / wall));
      last = now;
      loads.push(loadavg()[0]);
    }
    console.log(
      `\nIdle API processes (dist, PGlite), one program followed, a block every ${BLOCK_MS} ms, all at once; ` +
        `${SECONDS} s in ${BUCKET_SECONDS} s buckets after ${SETTLE_MS / 1000} s`,
    );
    console.log(
      `load average (1 min) during the run: ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
    );
    console.log("CPU of one core: median bucket, mean, and the buckets");
    for (const inst of instances) {
      const xs = inst.buckets;
      console.log(
        `${inst.name.padEnd(44)} ${median(xs).toFixed(2).padStart(5)}%  mean ${mean(xs).toFixed(2)}%  [${xs
          .map((x) => x.toFixed(2))
          .join(" ")}]`,
      );
    }
    const all = instances.find((i) => i.name === ALL_VARIANTS[0]![0]);
    if (all) {
      const ok = median(all.buckets) < GOAL_PERCENT;
      console.log(
        `${ok ? "PASS" : "MISS"}  an idle instance uses < ${GOAL_PERCENT}% of a core (${median(all.buckets).toFixed(2)}%)`,
      );
      if (!ok) process.exitCode = 1;
    }
  } finally {
    await Promise.all(
      instances.map(
        (i) =>
          new Promise<void>((r) => {
            if (i.child.exitCode !== null || i.child.signalCode !== null) return r();
            i.child.once("exit", () => r());
            i.child.kill("SIGTERM");
          }),
      ),
    );
    for (const i of instances) rmSync(i.dataDir, { recursive: true, force: true });
    await node.stop();
  }
}

await main();
