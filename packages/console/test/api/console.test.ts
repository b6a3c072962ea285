import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { routes } from "@points/schema";

// src/api/client.ts reads the page's origin when loaded.
(globalThis as { window?: unknown }).window = { location: { origin: "http://127.0.0.1" } };
// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/api/console.ts";
const { CONSOLE_ROUTES } = (await import(source)) as {
  CONSOLE_ROUTES: Record<string, { method: string; path: string }>;
};

describe("the console's route table", () => {
  it("namesEveryConsoleRouteOfTheSchema_withItsMethodAndPath", () => {
    const fromSchema = Object.fromEntries(
      Object.entries(routes)
        .filter(([name]) => name.startsWith("console"))
        .map(([name, r]) => [name, { method: r.method, path: r.path }]),
    );
    assert.deepEqual(CONSOLE_ROUTES, fromSchema);
  });
});
