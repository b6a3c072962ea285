// Compiles the tests, the sources they import and the benchmarks to JavaScript in .test-build/ (same
// layout: src/, test/, bench/), so that `node --test` runs them without a TypeScript loader. tsx
// transforms with the same esbuild, but its resolve and load hooks sit on every import of every
// test process, node_modules included: about 0.9 CPU-s of each process's 1.8 s start
// (docs/architecture.md#tests-and-ci). Types are checked by the lint (tsc -p test/tsconfig.json).
import { globSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(pkg, ".test-build");
// Whole: a test or source deleted since the last run must not run from a stale copy.
rmSync(out, { recursive: true, force: true });
const entryPoints = ["src", "test", "bench"]
  .flatMap((dir) => globSync(`${dir}/**/*.ts`, { cwd: pkg }))
  .filter((file) => !file.endsWith(".d.ts"))
  .map((file) => join(pkg, file));
await build({
  entryPoints,
  outdir: out,
  outbase: pkg,
  format: "esm",
  platform: "node",
  target: `node${process.versions.node}`,
  tsconfig: join(pkg, "test/tsconfig.json"),
  // Inline maps cost nothing unless asked for: NODE_OPTIONS=--enable-source-maps gives .ts lines.
  sourcemap: "inline",
  logLevel: "warning",
});
