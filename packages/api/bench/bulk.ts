/**
 * A 10,000-row bulk mint request (CSV) validated, chunked under the default 10M gas ceiling and
 * every chunk simulated, end to end over HTTP against a local node (docs/rules.md#bulk-requests).
 * Target: <= 2 s. Printed, never asserted: `pnpm --filter @points/api bench:bulk`.
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import { setupE2E, SP } from "../test/helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, recipients } from "../test/helpers/bulk.js";
import { checkRows, readRows } from "../src/bulk/rows.js";

const ROWS = 10_000;
const RUNS = 3;
const e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000", API_DOCUMENT_HOOK: "off" }));
try {
  await bulkCampaign(e, SP(ROWS));
  const csv = ["address,amount", ...recipients(ROWS, "bench").map((a) => `${a},0.75`)].join("\n");
  const request = (text: string, dryRun: boolean) =>
    e.call("bulkPspMint", { body: { campaignId: CAMPAIGN, recipients: text, dryRun, from: e.who.brand.address } });
  const time = async (fn: () => Promise<{ status: number; body: any }>) => {
    const ms: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      last = await fn();
      ms.push(performance.now() - t0);
      if (last.status !== 200) throw new Error(JSON.stringify(last.body).slice(0, 500));
    }
    return { median: ms.sort((a, b) => a - b)[RUNS >> 1], data: last!.body.data };
  };
  const t0 = performance.now();
  for (let i = 0; i < RUNS; i++) checkRows(readRows(csv), 18, "");
  const parse = (performance.now() - t0) / RUNS;
  const one = await time(() => request(csv.split("\n").slice(0, 2).join("\n"), false));
  const dry = await time(() => request(csv, true));
  const full = await time(() => request(csv, false));
  const d = full.data;
  // A shared 2-core machine: the load says how far the figures are from an idle one.
  console.log(
    `bulk mint, ${ROWS} rows (CSV, ${(csv.length / 1e6).toFixed(2)} MB), median of ${RUNS} runs, load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`  parse + check rows (in process)        ${parse.toFixed(0)} ms`);
  console.log(`  dry run over HTTP                      ${dry.median.toFixed(0)} ms`);
  console.log(
    `  built: chunked + every chunk simulated ${full.median.toFixed(0)} ms  (target <= 2000 ms: ${full.median <= 2000 ? "met" : "NOT met"})`,
  );
  console.log(
    `  baseline: 1-row request                ${one.median.toFixed(0)} ms  (10k rows = ${(full.median / one.median).toFixed(1)}x)`,
  );
  console.log(
    `  chunks ${d.chunkCount}, rows per chunk <= ${Math.max(...d.chunks.map((c: any) => c.rowCount))}, measured gas per row ${d.gasPerRow}, largest chunk gas limit ${Math.max(...d.chunks.map((c: any) => Number(c.simulatedGas)))}`,
  );
} finally {
  await e.stop();
}
