import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isBuildRoute, routes, type RouteDef, type UnsignedTx } from "@points/schema";
import { scopeOf } from "../src/core/auth/scopes.js";
import { PKG } from "./helpers/cli.js";
import { send } from "./helpers/http.js";
import { expectError, setupE2E, USDC, type E2E } from "./helpers/e2e.js";

/**
 * The service's public surface, compared with a committed fixture so that a refactor (the
 * three-layer move in docs/architecture.md) cannot change it unnoticed: the OpenAPI document, the route
 * table Express serves (method, path, auth, scope) and the calldata of a few build routes on a
 * fresh dev chain. `SURFACE_UPDATE=1` rewrites the fixture (README: "Surface snapshot").
 */
const DIR = join(PKG, "test", "fixtures", "surface");
const UPDATE = process.env.SURFACE_UPDATE === "1";

function matchesFixture(name: string, actual: unknown): void {
  const file = join(DIR, `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (UPDATE) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.equal(text, readFileSync(file, "utf8"), `${name} differs from test/fixtures/surface/${name}.json`);
}

/**
 * What Express routes, in registration order: one line per route of the router's stack,
 * "METHOD path [auth scope tx]" (tx: a build route) ("ALL" for a path's 405/OPTIONS answer on every method).
 */
function routeTable(app: E2E["api"]["service"]["app"]): string[] {
  const byPath = new Map<string, RouteDef>();
  for (const r of Object.values(routes as Record<string, RouteDef>)) byPath.set(`${r.method} ${r.path}`, r);
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const rows: string[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods);
    if (methods.length > 8) {
      rows.push(`ALL ${layer.route.path}`);
      continue;
    }
    for (const method of methods) {
      const route = byPath.get(`${method} ${layer.route.path}`);
      const meta = route ? ` ${route.auth} ${scopeOf(route)}${isBuildRoute(route) ? " tx" : ""}` : "";
      rows.push(`${method.toUpperCase()} ${layer.route.path}${meta}`);
    }
  }
  return rows;
}

/** The deterministic part of a built transaction (fees and gas follow the node, not the service). */
const txOf = (t: UnsignedTx) => ({
  from: t.from,
  to: t.to,
  data: t.data,
  value: t.value,
  chainId: t.chainId,
  nonce: t.nonce,
  call: t.call,
});

describe("the public surface matches test/fixtures/surface", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E();
  });
  after(() => e?.stop());

  it("openApiDocument_isUnchanged", async () => {
    const res = await send(e.api.url, "GET", "/api/v1/openapi.json");
    assert.equal(res.status, 200);
    matchesFixture("openapi", res.body);
  });

  it("routeTable_methodPathAuthAndScope_isUnchanged", () => {
    matchesFixture("routes", routeTable(e.api.service.app));
  });

  it("builtTransactions_onAFreshDevChain_areUnchanged", async () => {
    const { brand, alice, bob } = e.who;
    const built: Record<string, unknown> = {};
    built.grantRole = txOf(
      await e.ok("grantRole", {
        body: { input: { contract: "factory", role: "MANAGER_ROLE", account: alice.address }, key: brand.address },
      }),
    );
    built.whitelistRedeemAdd = txOf(
      await e.ok("whitelistRedeemAdd", { body: { account: bob.address, from: brand.address } }),
    );
    const mint = { input: { asset: e.usdc, amount: USDC(7).toString() }, key: brand.address };
    await (await e.c.factory.connect(brand).addToMintWhitelist(brand.address)).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(brand.address)).wait();
    await (await e.c.usdc.connect(brand).mint(brand.address, USDC(7))).wait();
    const refused = expectError(await e.call("buildMint", { body: mint }), 422, "WOULD_REVERT");
    built.buildMintPrerequisite = txOf(refused.prerequisite as UnsignedTx);
    await (await e.c.usdc.connect(brand).approve(e.record.factory, USDC(7))).wait();
    built.buildMint = txOf(await e.ok("buildMint", { body: mint }));
    built.pause = txOf(await e.ok("pause", { body: { input: { contract: "points" }, key: brand.address } }));
    matchesFixture("transactions", built);
  });
});
