/**
 * Deployment benchmark (`pnpm bench:deploy`): the runs of ./runs.ts on ONE local Hardhat node
 * mining one block per second (no automine). With `--write-readme` (`pnpm bench:readme`) it also
 * rewrites the README's gas and timing tables (./readme.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { COMMAND, gasBlock, README, replaceBlock, TARGET_PERCENT, timingBlock } from "./readme.js";
import { blocksSpanned, percent, runBench } from "./runs.js";

const write = process.argv.includes("--write-readme");
const started = new Date();
const loadAverage = os.loadavg()[0];
const r = await runBench({ blockIntervalMs: 1000, log: console.log });
const { a, b, c } = r;

const rows = [a, b, c].map((run) => [
  run.name,
  `${(run.wallMs / 1000).toFixed(1)} s`,
  String(blocksSpanned(run)),
  String(run.transactions),
  run.gas.toLocaleString("en-US"),
]);
const header = ["run", "wall time", "blocks spanned", "transactions", "total gas"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
console.log([line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n"));
for (const run of [a, b]) console.log(`${run.name}: blocks(transactions) ${run.perBlock.join(" ")}`);
const ratio = percent(a.gas, c.gas);
console.log(
  `targets: (a) one block: ${blocksSpanned(a) === 1 ? "met" : "MISSED"}; (b) at most two blocks: ${blocksSpanned(b) <= 2 ? "met" : "MISSED"}; ` +
    `gas (a) = ${ratio}% of (c), at most ${TARGET_PERCENT}%: ${ratio <= TARGET_PERCENT ? "met" : "MISSED"}`,
);

if (write) {
  let text = readFileSync(README, "utf8");
  text = replaceBlock(text, "gas-table", gasBlock(r));
  text = replaceBlock(text, "timing-table", timingBlock(r, started, loadAverage));
  writeFileSync(README, text);
  console.log(`README.md: gas and timing tables rewritten (${COMMAND})`);
}
