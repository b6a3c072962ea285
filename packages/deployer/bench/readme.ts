/**
 * The README's benchmark tables, generated from a run (`pnpm bench:readme`). Two blocks between
 * marker comments: the gas table (deterministic on a Hardhat node: test/readmeGas.test.ts checks
 * it) and the timing table (measured on the machine that ran the command: not checked).
 */
import os from "node:os";
import { blocksSpanned, percent, type BenchResult, type Run } from "./runs.js";

export const README = new URL("../README.md", import.meta.url);
export const COMMAND = "pnpm --filter @points/deployer bench:readme";
/** Gas (a) as a share of gas (c), at most. */
export const TARGET_PERCENT = 25;

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
  // Prettier's own markdown table layout, so formatting the README leaves the block unchanged.
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

const runs = (r: BenchResult) => [r.a, r.b, r.c];

/** The gas table and the figures derived from it: nothing here depends on timing. */
export function gasBlock(r: BenchResult): string {
  const rows = runs(r).map((run) => [run.name, String(run.transactions), run.gas.toLocaleString("en-US")]);
  const share = percent(r.a.gas, r.c.gas);
  return [
    ...table(["run", "transactions", "total gas"], rows),
    "",
    `- gas (a) = ${share.toFixed(2)} % of (c) (target at most ${TARGET_PERCENT} %): ${share <= TARGET_PERCENT ? "met" : "MISSED"}.`,
    `- gas (b) = ${percent(r.b.gas, r.c.gas).toFixed(2)} % of (c): (b) also deploys the release (the ProgramFactory`,
    "  and every implementation, the Oracle's included), once per chain; every later program costs (a).",
  ].join("\n");
}

/** Wall time and blocks spanned of one run on this machine, said to be so. */
export function timingBlock(r: BenchResult, when: Date, loadAverage: number): string {
  const show = (run: Run) => [run.name, `${(run.wallMs / 1000).toFixed(1)} s`, String(blocksSpanned(run))];
  return [
    `Measured by \`${COMMAND}\` on ${when.toISOString().slice(0, 10)}: ${os.cpus().length} cores,`,
    `load average ${loadAverage.toFixed(2)} when it started, ${r.client}, one block per second.`,
    "",
    ...table(["run", "wall time", "blocks spanned"], runs(r).map(show)),
    "",
    ...[r.a, r.b].map((run) => `- ${run.name.slice(0, 3)} blocks(transactions): \`${run.perBlock.join(" ")}\``),
  ].join("\n");
}

const markers = (name: string) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** The text between `<!-- name:start -->` and `<!-- name:end -->` (each once, in that order), trimmed. */
export function readBlock(text: string, name: string): string {
  const [start, end] = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from || text.indexOf(start, from + 1) >= 0 || text.indexOf(end, to + 1) >= 0) {
    throw new Error(`expected one ${start} followed by one ${end}`);
  }
  return text.slice(from + start.length, to).trim();
}

/** `text` with the block `name` replaced by `content`; the rest byte for byte. */
export function replaceBlock(text: string, name: string, content: string): string {
  readBlock(text, name); // the same checks
  const [start, end] = markers(name);
  // Blank lines around the content, as prettier puts them between an HTML comment and a table.
  return `${text.slice(0, text.indexOf(start) + start.length)}\n\n${content}\n\n${text.slice(text.indexOf(end))}`;
}
