/**
 * Size of a browser bundle that does one read through the SDK: esbuild, minified, ESM, with
 * ethers and everything else bundled in. Printed, never asserted.
 *
 *   pnpm --filter @points/sdk build && pnpm --filter @points/sdk bench:bundle [dist-dir ...]
 *
 * Each argument is an SDK build to measure (default: this package's dist); pass an older
 * build's dist to compare.
 */
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dists = process.argv.slice(2).length ? process.argv.slice(2) : [resolve(here, "../dist")];

async function measure(dist: string) {
  const entry = `
    import { createClient } from ${JSON.stringify(resolve(dist, "index.js"))};
    const points = createClient({ baseUrl: location.origin });
    points.read.balance("0x70997970C51812dc3A010C7d01b50e0d17dc79C8").then((b) => console.log(b));
  `;
  const out = await build({
    stdin: { contents: entry, resolveDir: here, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    // An older build copied elsewhere still resolves its dependencies from this package.
    nodePaths: [resolve(here, "../node_modules")],
  });
  const code = out.outputFiles[0].contents;
  const byPackage = new Map<string, number>();
  const inputs = Object.values(out.metafile.outputs)[0].inputs;
  for (const [file, input] of Object.entries(inputs)) {
    const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file);
    const name = m ? m[1] : file.includes("/schema/") ? "@points/schema" : "@points/sdk";
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const top = [...byPackage.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(`${dist}\n  minified ${kB(code.length)}, gzipped ${kB(gzipSync(code).length)}`);
  console.log(`  largest: ${top.map(([n, b]) => `${n} ${kB(b)}`).join(", ")}`);
}

for (const dist of dists) await measure(dist);
