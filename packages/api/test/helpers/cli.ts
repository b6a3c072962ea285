import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { packageRoot } from "../../src/core/packageRoot.js";

export const run = promisify(execFile);
export const PKG = packageRoot(import.meta.url);
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
