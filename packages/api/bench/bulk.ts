/**
 * A 10,000-row bulk mint request (CSV) validated, chunked under the default 10M gas ceiling and
 * every chunk simulated, end to end over HTTP against a local node (docs/rules.md#bulk-requests).
 * Target: <= 2 s. Printed, never asserted: `pnpm --filter @points/api bench:bulk`.
 *
 * The machine is shared, so beside wall time it prints CPU time: the API's (this process,
 * process.cpuUsage) and the node's (its process group, from /proc), per request. With
 * BULK_PROFILE=<file.cpuprofile> the API's CPU profile of the built requests is written there.
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { setupE2E, SP } from "../test/helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, recipients } from "../test/helpers/bulk.js";
import { checkRows, readRows } from "../src/core/bulk/rows.js";

const ROWS = 10_000;
const RUNS = 3;
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU ms of every process in process group `pgid` (the node runs in its own group). */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields after the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12).
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // The process ended while listed.
    }
  }
  return ticks * TICK_MS;
}
const apiCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000", API_DOCUMENT_HOOK: "off" }));
try {
  await bulkCampaign(e, SP(ROWS));
  const csv = ["address,amount", ...recipients(ROWS, "bench").map((a) => `${a},0.75`)].join("\n");
  const request = (text: string, dryRun: boolean) =>
    e.call("bulkPspMint", { body: { campaignId: CAMPAIGN, recipients: text, dryRun, from: e.who.brand.address } });
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const time = async (fn: () => Promise<{ status: number; body: any }>) => {
    const wall: number[] = [];
    const api: number[] = [];
    const node: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      const [c0, n0, t0] = [apiCpuMs(), groupCpuMs(e.node.pid), performance.now()];
      last = await fn();
      wall.push(performance.now() - t0);
      api.push(apiCpuMs() - c0);
      node.push(groupCpuMs(e.node.pid) - n0);
      if (last.status !== 200) throw new Error(JSON.stringify(last.body).slice(0, 500));
    }
    return { wall: median(wall), api: median(api), node: median(node), data: last!.body.data };
  };
  const c0 = apiCpuMs();
  for (let i = 0; i < RUNS; i++) checkRows(await readRows(csv), 18, "");
  const parse = (apiCpuMs() - c0) / RUNS;
  const one = await time(() => request(csv.split("\n").slice(0, 2).join("\n"), false));
  const dry = await time(() => request(csv, true));
  const profile = process.env.BULK_PROFILE;
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const full = await time(() => request(csv, false));
  if (session) {
    const { profile: p } = await session.post("Profiler.stop");
    writeFileSync(profile!, JSON.stringify(p));
    session.disconnect();
  }
  const d = full.data;
  const fig = (t: { wall: number; api: number; node: number }) =>
    `${t.wall.toFixed(0).padStart(5)} ms wall, CPU ${t.api.toFixed(0).padStart(5)} ms API + ${t.node.toFixed(0).padStart(5)} ms node`;
  // A shared 2-core machine: the load says how far the wall figures are from an idle one.
  console.log(
    `bulk mint, ${ROWS} rows (CSV, ${(csv.length / 1e6).toFixed(2)} MB), median of ${RUNS} runs, load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`  parse + check rows (in process, CPU)   ${parse.toFixed(0).padStart(5)} ms`);
  console.log(`  baseline: 1-row request               ${fig(one)}`);
  console.log(`  dry run over HTTP                     ${fig(dry)}`);
  console.log(`  built: chunked + every chunk simulated ${fig(full)}`);
  const cpu = full.api + full.node;
  console.log(
    `  target <= 2000 ms: wall ${full.wall <= 2000 ? "met" : "NOT met"}, CPU (API + node) ${cpu.toFixed(0)} ms ${cpu <= 2000 ? "met" : "NOT met"}`,
  );
  console.log(
    `  ratios: built / 1-row = ${(full.wall / one.wall).toFixed(1)}x wall; built / dry run = ${(full.wall / dry.wall).toFixed(1)}x wall; parse share of API CPU ${((parse / full.api) * 100).toFixed(0)}%`,
  );
  console.log(
    `  chunks ${d.chunkCount}, rows per chunk <= ${Math.max(...d.chunks.map((c: any) => c.rowCount))}, measured gas per row ${d.gasPerRow}, largest chunk gas limit ${Math.max(...d.chunks.map((c: any) => Number(c.simulatedGas)))}`,
  );
} finally {
  await e.stop();
}
