import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { fileRoutes, isBuildRoute, routes, type RouteName } from "@points/schema";
import { createClient, PointsApiError, routeTable } from "../src/index.js";
import { isConsoleRoute, routeTableSource } from "../scripts/routeTableSource.js";
import { LEDGER_FILE_ROUTES } from "../src/namespaces/ledger.js";

describe("the runtime route table", () => {
  it("namesEveryRouteOfTheSchemaButTheConsoles_withItsMethodPathAndWhetherItBuilds", () => {
    const expected = Object.fromEntries(
      (Object.keys(routes) as RouteName[])
        .filter((n) => !isConsoleRoute(n))
        .map((n) => [
          n,
          { method: routes[n].method, path: routes[n].path, ...(isBuildRoute(routes[n]) ? { build: true } : {}) },
        ]),
    );
    assert.deepEqual({ ...routeTable }, expected);
  });

  it("fileRoutes_theCsvExports_matchTheSchemasMethodAndPath", () => {
    assert.deepEqual(
      LEDGER_FILE_ROUTES,
      Object.fromEntries(
        Object.entries(fileRoutes).map(([n, r]) => [n, { method: r.method, path: r.path, file: true }]),
      ),
    );
  });

  it("leavesOutExactlyTheConsolesRoutes_theOnesTaggedConsoleUnderConsoleV1", () => {
    const consoleRoutes = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].tag === "console");
    assert.ok(consoleRoutes.length > 0);
    assert.deepEqual(consoleRoutes, (Object.keys(routes) as RouteName[]).filter(isConsoleRoute));
    for (const n of consoleRoutes) assert.match(routes[n].path, /^\/console\/v1\//);
    for (const path of Object.values(routeTable).map((r) => r.path)) assert.doesNotMatch(path, /^\/console\//);
  });

  it("consoleRouteName_isNoClientRoute_aCompileErrorAndInvalidInput_withoutARequest", async () => {
    let fetched = 0;
    const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: async () => (fetched++, new Response()) });
    // @ts-expect-error the console's routes are not the SDK's
    await assert.rejects(client.request("consoleMe"), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.deepEqual([e.code, e.message], ["INVALID_INPUT", "the SDK has no route consoleMe"]);
      return true;
    });
    assert.equal(fetched, 0);
  });

  it("isWhatTheGeneratorWrites_soItIsNeverStale", async () => {
    const file = new URL("../src/routeTable.ts", import.meta.url);
    const generated = await format(routeTableSource(), { ...(await resolveConfig(file)), filepath: file.pathname });
    assert.equal(readFileSync(file, "utf8"), generated, "run `pnpm --filter @points/sdk routes`");
  });
});
