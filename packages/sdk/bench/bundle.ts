/**
 * Size of a browser bundle that does one read through the SDK (create the client, read one
 * balance), imported from `@points/sdk/client` and from the main entry: esbuild, minified, ESM,
 * code splitting on (as a browser app is built), ethers and everything else bundled in. What a
 * page loads for the read is the entry chunk and the chunks it imports statically; what the SDK
 * imports on first use (`import()`: the transaction helpers, bulk sends, the issuer) is counted
 * apart. esbuild places code the main entry re-exports (prepare, NonceQueue, orderHash...) in a
 * chunk the page imports even when unused, so only the `/client` bundle has a budget.
 *
 *   pnpm --filter @points/sdk bench:bundle [dist-dir ...]   sizes of this package's src, or of builds
 *   pnpm --filter @points/sdk bench:bundle --check          fails above bench/size-budget.json (lint runs it)
 *
 * Each argument is an SDK build to measure (pass an older build's dist to compare); without
 * one, the sources are measured, so no build is needed.
 */
import { build, type Metafile } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes("--check");
const dists = args.filter((a) => a !== "--check");
const src = resolve(here, "../src");
const entries = (dists.length ? dists : [src]).flatMap((d) => {
  const ext = d === src ? "ts" : "js";
  return [
    { index: resolve(d, `clientEntry.${ext}`), budgeted: true },
    { index: resolve(d, `index.${ext}`), budgeted: false },
  ];
});
const budget = JSON.parse(readFileSync(resolve(here, "size-budget.json"), "utf8")) as { oneReadGzipBytes: number };

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

async function measure(index: string) {
  const entry = `
    import { createClient } from ${JSON.stringify(index)};
    const points = createClient({ baseUrl: location.origin });
    points.read.balance("0x70997970C51812dc3A010C7d01b50e0d17dc79C8").then((b) => console.log(b));
  `;
  const out = await build({
    stdin: { contents: entry, resolveDir: here, loader: "js", sourcefile: "one-read.js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    splitting: true,
    outdir: resolve(here, "out"),
    write: false,
    metafile: true,
    logLevel: "silent",
    // An older build copied elsewhere still resolves its dependencies from this package.
    nodePaths: [resolve(here, "../node_modules")],
  });
  const outputs = out.metafile.outputs;
  const relative = (path: string) => Object.keys(outputs).find((k) => path.endsWith(k))!;
  const bytes = new Map(out.outputFiles.map((f) => [relative(f.path), f.contents]));
  // The entry chunk and, transitively, what it imports statically: loaded before the read.
  const start = Object.keys(outputs).find((k) => outputs[k].entryPoint !== undefined)!;
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const i of outputs[file].imports) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  visit(start);
  const files = [...initial];
  const min = files.reduce((n, f) => n + bytes.get(f)!.length, 0);
  const gzip = files.reduce((n, f) => n + gzipSync(bytes.get(f)!).length, 0);
  const lazy = Object.keys(outputs).filter((k) => k.endsWith(".js") && !initial.has(k));
  const lazyMin = lazy.reduce((n, f) => n + bytes.get(f)!.length, 0);
  console.log(`${index}\n  one read: minified ${kB(min)}, gzipped ${kB(gzip)} (${files.length} file(s))`);
  console.log(`  largest: ${top(files.map((f) => outputs[f]))}`);
  console.log(`  loaded on first use (writes, bulk, issuer): ${lazy.length} chunk(s), minified ${kB(lazyMin)}`);
  return gzip;
}

/** The five largest contributors by package, the SDK's own by file. */
function top(files: Metafile["outputs"][string][]) {
  const by = new Map<string, number>();
  for (const f of files) {
    for (const [file, input] of Object.entries(f.inputs)) {
      const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file);
      const name = m ? m[1] : file.replace(/^.*\/(src|dist)\//, "$1/");
      by.set(name, (by.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return [...by.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([n, b]) => `${n} ${kB(b)}`)
    .join(", ");
}

for (const { index, budgeted } of entries) {
  if (!existsSync(index)) continue; // a build from before the /client entry
  const gzip = await measure(index);
  if (!budgeted) continue;
  if (check && gzip > budget.oneReadGzipBytes) {
    console.error(`  over budget: ${gzip} B gzipped > ${budget.oneReadGzipBytes} B (bench/size-budget.json)`);
    process.exitCode = 1;
  } else if (check) console.log(`  within budget: ${gzip} B gzipped <= ${budget.oneReadGzipBytes} B`);
}
