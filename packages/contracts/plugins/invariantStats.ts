import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { HardhatPlugin } from "hardhat/types/plugins";

/**
 * Invariant run settings. CI runs the defaults; INVARIANT_RUNS / INVARIANT_DEPTH raise them
 * and INVARIANT_SEED replays or varies the (otherwise fixed) random sequences.
 */
export const invariantSettings = {
  runs: Number(process.env.INVARIANT_RUNS ?? 1000),
  depth: Number(process.env.INVARIANT_DEPTH ?? 50),
  seed: process.env.INVARIANT_SEED ?? "0x5eed",
};

/** Where each invariant suite appends `suite,operation,ok,rejected` lines after every run. */
export const INVARIANT_STATS_DIR = "cache/invariant-stats";
const SUITES = ["no-oracle", "oracle"];
export const INVARIANT_STATS_FILES = SUITES.map((suite) => `${INVARIANT_STATS_DIR}/${suite}.csv`);

/**
 * Prints the seed before the Solidity tests run and, after them, how many handler steps
 * succeeded and how many reverted, per suite and operation (Hardhat's reporter shows only
 * the number of runs).
 */
const invariantStats: HardhatPlugin = {
  id: "points-invariant-stats",
  hookHandlers: {
    test: async () => ({
      default: async () => ({
        onTestRunStart: async (context, id, next) => {
          if (id === "solidity") startStats(context.config.paths.root);
          return next(context, id);
        },
        onTestRunDone: async (context, id, next) => {
          await next(context, id);
          if (id === "solidity") printStatsFiles(context.config.paths.root);
        },
      }),
    }),
  },
};

/**
 * Before a run: empties the stats folder (vm.writeLine appends, and does not create folders)
 * and prints the settings. Also used by scripts/forgeTest.ts.
 */
export function startStats(root: string) {
  const dir = path.join(root, INVARIANT_STATS_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { runs, depth, seed } = invariantSettings;
  console.log(`Invariant runs: ${runs}, depth: ${depth}, seed: ${seed} (INVARIANT_SEED=${seed} replays them)`);
}

/** After a run: the table of handler steps from the suites' stats files; returns how many suites wrote one. */
export function printStatsFiles(root: string): number {
  const files = INVARIANT_STATS_FILES.map((f) => path.join(root, f)).filter(existsSync);
  if (files.length > 0) printStats(files.map((f) => readFileSync(f, "utf8")).join("\n"));
  return files.length;
}

function printStats(csv: string) {
  const rows = new Map<string, { ok: number; rejected: number }>();
  const totals = new Map<string, { ok: number; rejected: number }>();
  for (const line of csv.split("\n").filter(Boolean)) {
    const [suite, op, ok, rejected] = line.split(",");
    for (const [map, key] of [
      [rows, `${suite} ${op}`],
      [totals, suite],
    ] as const) {
      const row = map.get(key) ?? { ok: 0, rejected: 0 };
      row.ok += Number(ok);
      row.rejected += Number(rejected);
      map.set(key, row);
    }
  }
  const pct = (r: { ok: number; rejected: number }) => ((100 * r.ok) / Math.max(1, r.ok + r.rejected)).toFixed(1);
  console.log("\nInvariant handler steps (succeeded / reverted):");
  for (const [key, r] of rows) console.log(`  ${key.padEnd(40)} ${String(r.ok).padStart(8)} / ${r.rejected}`);
  for (const [suite, r] of totals) {
    console.log(`  ${suite}: ${r.ok} of ${r.ok + r.rejected} steps succeeded (${pct(r)}%)`);
  }
}

export default invariantStats;
