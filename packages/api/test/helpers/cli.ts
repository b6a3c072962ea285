import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
/** The package's root: the first folder up with a package.json (test/helpers, or .test-build/test/helpers compiled). */
function packageRoot(dir: string): string {
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
export const PKG = packageRoot(dirname(fileURLToPath(import.meta.url)));
export const CLI = join(PKG, "dist/cli/main.js");

/** The built `points-api` CLI against `dataDir`, with nothing else from this process's env but `env`. */
export async function cli(dataDir: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
