import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { isBuildRoute, routes, type RouteName } from "@points/schema";
import { routeTable } from "../src/index.js";
import { routeTableSource } from "../scripts/routeTableSource.js";

describe("the runtime route table", () => {
  it("namesEveryRouteOfTheSchema_withItsMethodPathAndWhetherItBuilds", () => {
    const expected = Object.fromEntries(
      (Object.keys(routes) as RouteName[]).map((n) => [
        n,
        { method: routes[n].method, path: routes[n].path, ...(isBuildRoute(routes[n]) ? { build: true } : {}) },
      ]),
    );
    assert.deepEqual({ ...routeTable }, expected);
  });

  it("isWhatTheGeneratorWrites_soItIsNeverStale", async () => {
    const file = new URL("../src/routeTable.ts", import.meta.url);
    const generated = await format(routeTableSource(), { ...(await resolveConfig(file)), filepath: file.pathname });
    assert.equal(readFileSync(file, "utf8"), generated, "run `pnpm --filter @points/sdk routes`");
  });
});
