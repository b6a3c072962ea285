import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The root of the package a module belongs to: the first folder up from `moduleUrl` with a
 * package.json. The same from src/, dist/ or the tests' compiled .test-build/ (scripts/compile-tests.mjs).
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
