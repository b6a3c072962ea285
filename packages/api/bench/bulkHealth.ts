/**
 * `/health` latency while the bulk routes read the worst CSV bodies a tenant may send, beside an idle baseline: many lines, many columns, quote runs, and the largest
 * accepted request (10,000 rows, dry run). Goal: under 200 ms on a 2-core machine. Printed,
 * never asserted: `pnpm --filter @points/api bench:bulkHealth`. The machine's load average is
 * printed with the figures, since a shared machine moves them. The probes run in another
 * process, so a blocked event loop in the API cannot delay their clock.
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { setupE2E, SP } from "../test/helpers/e2e.js";
import { bulkCampaign, CAMPAIGN, recipients } from "../test/helpers/bulk.js";

const IDLE_MS = 1_000;
const GAP_MS = 5;

/** Probes `url` every GAP_MS from a child process until its stdin ends; prints the latencies. */
const PROBER = `
const { performance } = require("node:perf_hooks");
const out = []; let stop = false;
process.stdin.on("data", () => {}); process.stdin.on("end", () => (stop = true));
(async () => {
  while (!stop) {
    const t0 = performance.now();
    const res = await fetch(process.argv[1]); await res.arrayBuffer();
    if (res.status !== 200) throw new Error("health " + res.status);
    out.push(performance.now() - t0);
    if (out.length === 1) process.stderr.write("ready");
    await new Promise((r) => setTimeout(r, ${GAP_MS}));
  }
  process.stdout.write(JSON.stringify(out));
})();`;

/** Latencies of /health probed from another process while `work` runs. */
async function probed<T>(url: string, work: () => Promise<T>): Promise<{ latencies: number[]; result: T }> {
  const child = spawn(process.execPath, ["-e", PROBER, url], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  await once(child.stderr, "data");
  const result = await work();
  child.stdin.end();
  await once(child, "exit");
  return { latencies: JSON.parse(stdout) as number[], result };
}

const e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000", API_DOCUMENT_HOOK: "off" }));
try {
  await bulkCampaign(e, SP(10_000));
  const stats = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
    return `n=${String(s.length).padStart(3)}  p50 ${at(0.5).padStart(7)} ms  p99 ${at(0.99).padStart(7)} ms  max ${s[s.length - 1].toFixed(1).padStart(7)} ms`;
  };
  const request = (recipientsText: string, dryRun = true) =>
    e.call("bulkPspMint", {
      body: { campaignId: CAMPAIGN, recipients: recipientsText, dryRun, from: e.who.brand.address },
    });

  const url = `${e.api.url}/health`;
  const idle = await probed(url, () => new Promise((r) => setTimeout(r, IDLE_MS)));
  const [a] = recipients(1, "health");
  const inputs: [string, string][] = [
    ["many lines (650,000 x 'a')", "a\n".repeat(650_000)],
    ["many columns (1.4M commas)", ",".repeat(1_400_000)],
    ["quote run (1.4M chars)", `${a},1\n"` + "x".repeat(1_400_000)],
    ["escaped quotes (350,000 x '\"\"')", `${a},1\n"` + '""'.repeat(350_000)],
    [
      "10,000 valid rows (dry run)",
      ["address,amount", ...recipients(10_000, "bench").map((r) => `${r},0.5`)].join("\n"),
    ],
  ];
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (2 cores shared)`,
  );
  console.log(`${"idle baseline".padEnd(36)} ${stats(idle.latencies)}`);
  for (const [name, text] of inputs) {
    let wall = "";
    const { latencies, result: res } = await probed(url, async () => {
      const t0 = performance.now();
      const answer = await request(text);
      wall = (performance.now() - t0).toFixed(0);
      return answer;
    });
    console.log(
      `${name.padEnd(36)} ${stats(latencies)}  (answer ${res.status} ${res.body?.error?.code ?? "ok"} in ${wall} ms)`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await e.stop();
}
