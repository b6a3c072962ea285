import assert from "node:assert/strict";
import { loadConfig } from "../../src/index.js";

/** The problems loadConfig lists for `env`, one a line (it must refuse `env`). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message
      .split("\n")
      .slice(1)
      .map((l) => l.trim());
  }
  assert.fail(`started with ${JSON.stringify(env)}`);
}
