/**
 * Packs @points/sdk for publishing: dist, README, CHANGELOG and LICENSE with the published
 * manifest (scripts/manifest.ts), refused when the manifest breaks a rule. Prints the
 * tarball's path. `pnpm --filter @points/sdk pack:release [destination]` after `build`;
 * then `npm publish <tarball>` (docs/deployment.md#publishing-the-sdk).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestProblems, publishedManifest } from "./manifest.js";

const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Packs into `destination` and returns the tarball's path; throws on a manifest problem. */
export function packSdk(destination: string): string {
  const manifest = publishedManifest(JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")));
  const problems = manifestProblems(manifest);
  if (problems.length) throw new Error(`refusing to pack @points/sdk: ${problems.join("; ")}`);
  const stage = mkdtempSync(join(tmpdir(), "points-sdk-pack-"));
  try {
    for (const entry of ["dist", "README.md", "CHANGELOG.md", "LICENSE"]) {
      cpSync(join(sdkDir, entry), join(stage, entry), { recursive: true });
    }
    writeFileSync(join(stage, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    const out = execFileSync("npm", ["pack", "--json", "--pack-destination", resolve(destination)], {
      cwd: stage,
      encoding: "utf8",
    });
    return join(resolve(destination), (JSON.parse(out) as { filename: string }[])[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(packSdk(process.argv[2] ?? sdkDir));
