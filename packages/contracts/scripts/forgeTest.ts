/**
 * `pnpm forge:test`: the Solidity invariant suites under Foundry's forge (the binary inside the
 * pinned @foundry-rs/forge-linux-amd64 package, never a global one), run as `hardhat test solidity`
 * runs them: the settings of plugins/invariantStats.ts (INVARIANT_RUNS, INVARIANT_DEPTH,
 * INVARIANT_SEED) become forge's FOUNDRY_INVARIANT_RUNS, FOUNDRY_INVARIANT_DEPTH and
 * FOUNDRY_FUZZ_SEED; the stats folder is emptied first and the handler steps printed after.
 * Extra arguments go to `forge test` (e.g. `--match-contract OraclePricedProgramInvariantsTest`).
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { invariantSettings, printStatsFiles, startStats } from "../plugins/invariantStats.ts";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const forge = path.join(path.dirname(require.resolve("@foundry-rs/forge-linux-amd64/package.json")), "bin", "forge");

startStats(root);
const { status, signal, error } = spawnSync(forge, ["test", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    FOUNDRY_INVARIANT_RUNS: String(invariantSettings.runs),
    FOUNDRY_INVARIANT_DEPTH: String(invariantSettings.depth),
    FOUNDRY_FUZZ_SEED: invariantSettings.seed,
  },
});
if (status !== 0) {
  console.error(`forge test failed (${error?.message ?? signal ?? `exit code ${status}`})`);
  process.exit(status ?? 1);
}
// forge exits 0 when it finds no test (e.g. over artifacts a bare `forge lint` left without
// bytecode, see README.md#foundry): a run in which no suite wrote its stats did not run them.
if (printStatsFiles(root) === 0) {
  console.error("forge ran no invariant suite: rebuild with `pnpm forge:build --force`");
  process.exit(1);
}
