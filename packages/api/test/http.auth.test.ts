import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routes, type RouteDef } from "@points/schema";
import { openDb } from "../src/index.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { validRequest } from "./helpers/badInput.js";
import { assertError, send } from "./helpers/http.js";
import { CLI, PKG, cli as cliIn, run } from "./helpers/cli.js";
const CLOSED_PORT = "http://127.0.0.1:9";
const table = Object.entries(routes as Record<string, RouteDef>);
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The built `points-api` CLI against `dataDir`, with nothing else from this process's env. */
const cli = (dataDir: string, ...args: string[]) => cliIn(dataDir, args);

/** A request that passes auth on `route` and then fails validation without touching a chain. */
function probe(route: RouteDef) {
  const { params } = validRequest(route);
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k]));
  return { method: route.method.toUpperCase(), path, body: route.body ? "{}" : undefined };
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

describe("http: authentication with API keys", () => {
  let dataDir: string;
  let live: { id: string; key: string };
  let revoked: { id: string; key: string };
  let api: TestApi;

  before(async () => {
    if (!existsSync(CLI)) await run("pnpm", ["run", "build"], { cwd: PKG });
    dataDir = mkdtempSync(join(tmpdir(), "points-api-keys-"));
  });
  after(async () => {
    await api?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe("points-api keys create | list | revoke", () => {
    it("keysCreate_printsThePlainKeyOnce_withAWarningToStoreIt", async () => {
      const made = [];
      for (const name of ["live", "to-revoke"]) {
        const out = await cli(dataDir, "keys", "create", "--name", name);
        assert.equal(out.code, 0, out.stderr);
        const info = JSON.parse(out.stdout.slice(0, out.stdout.lastIndexOf("}") + 1));
        assert.match(info.key, /^pk_[A-Za-z0-9_-]{43}$/);
        assert.equal(info.name, name);
        assert.equal(info.revokedAt, null);
        assert.match(out.stdout, /cannot be shown again/);
        made.push(info);
      }
      [live, revoked] = made;
      assert.notEqual(live.key, revoked.key);
    });

    it("theDatabase_holdsOnlyTheSha256OfEachKey_neverTheKey", async () => {
      const db = await openDb({ dataDir });
      try {
        const rows = await db.query<Record<string, unknown>>("SELECT * FROM api_keys ORDER BY created_at");
        assert.equal(rows.length, 2);
        for (const [row, made] of rows.map((r, i) => [r, [live, revoked][i]] as const)) {
          assert.equal(row.key_hash, sha256(made.key));
          // Only a short display prefix is kept; the secret part appears in no column.
          const secret = made.key.slice(10);
          for (const [column, value] of Object.entries(row)) {
            assert.ok(!String(value).includes(secret), `column ${column} holds the key`);
          }
        }
      } finally {
        await db.close();
      }
    });

    it("keysList_showsKeysWithoutSecretsOrHashes", async () => {
      const out = await cli(dataDir, "keys", "list");
      assert.equal(out.code, 0, out.stderr);
      const list = JSON.parse(out.stdout);
      assert.deepEqual(
        list.map((k: { id: string }) => k.id),
        [live.id, revoked.id],
      );
      for (const k of [live, revoked]) {
        assert.ok(!out.stdout.includes(k.key.slice(10)), "list shows a key");
        assert.ok(!out.stdout.includes(sha256(k.key)), "list shows a hash");
      }
    });

    it("keysRevoke_marksTheKeyRevoked_andASecondRevokeFails", async () => {
      const out = await cli(dataDir, "keys", "revoke", revoked.id);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, new RegExp(`revoked ${revoked.id}`));
      const again = await cli(dataDir, "keys", "revoke", revoked.id);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no active key/);
      const list = JSON.parse((await cli(dataDir, "keys", "list")).stdout);
      assert.equal(list.find((k: { id: string }) => k.id === revoked.id).revokedAt !== null, true);
      assert.equal(list.find((k: { id: string }) => k.id === live.id).revokedAt, null);
    });
  });

  describe("over HTTP, with the keys the CLI created", () => {
    before(async () => {
      api = await startApi(CLOSED_PORT, { DATA_DIR: dataDir });
    });
    const keyRoute = probe(routes.whitelistMintAdd);

    it("aLiveKey_passesAuth_onAKeyRoute", async () => {
      const res = await send(api.url, keyRoute.method, keyRoute.path, { body: "{}", headers: bearer(live.key) });
      assertError(res, "INVALID_INPUT", "reached validation, so auth passed");
    });

    it("aRevokedKey_is401", async () => {
      const res = await send(api.url, keyRoute.method, keyRoute.path, { body: "{}", headers: bearer(revoked.key) });
      assertError(res, "UNAUTHORIZED");
      assert.match(res.body.error.message, /unknown or revoked/);
    });

    it("anUnknownKey_is401", async () => {
      for (const key of ["pk_" + "A".repeat(43), live.key + "x", live.key.slice(0, -1)]) {
        assertError(
          await send(api.url, keyRoute.method, keyRoute.path, { body: "{}", headers: bearer(key) }),
          "UNAUTHORIZED",
        );
      }
    });

    it("aMalformedAuthorizationHeader_is401_evenOnAnOpenRoute", async () => {
      const open = probe(routes.listFactories);
      const malformed = [
        "Bearer",
        "Bearer ",
        `Basic ${live.key}`,
        `Bearer ${live.key} extra`,
        live.key,
        `Token ${live.key}`,
      ];
      for (const value of malformed) {
        const headers = { authorization: value, "content-type": "application/json" };
        assertError(
          await send(api.url, keyRoute.method, keyRoute.path, { body: "{}", headers }),
          "UNAUTHORIZED",
          value,
        );
        assertError(await send(api.url, open.method, open.path, { headers }), "UNAUTHORIZED", value);
      }
    });

    it("theBearerScheme_isCaseInsensitive", async () => {
      const headers = { authorization: `bearer ${live.key}`, "content-type": "application/json" };
      assertError(await send(api.url, keyRoute.method, keyRoute.path, { body: "{}", headers }), "INVALID_INPUT");
    });

    it("everyKeyRoute_needsAKey_andEveryOpenRoute_doesNot", async () => {
      for (const [name, route] of table) {
        const p = probe(route);
        const res = await send(api.url, p.method, p.path, {
          body: p.body,
          headers: p.body ? { "content-type": "application/json" } : {},
        });
        if (route.auth !== "open") assertError(res, "UNAUTHORIZED", name);
        else assert.notEqual(res.status, 401, `${name} is open but answered 401`);
      }
    });
  });

  describe("REQUIRE_API_KEY=true", () => {
    let strict: TestApi;
    let key: string;
    before(async () => {
      strict = await startApi(CLOSED_PORT, { REQUIRE_API_KEY: "true" });
      key = (await strict.service.ctx.keys.create("strict")).key;
    });
    after(async () => {
      await strict?.close();
    });

    it("everyRouteOfTheTable_needsAKey_exceptTheConsolesPublicSignInRoutes", async () => {
      for (const [name, route] of table) {
        const p = probe(route);
        const headers = p.body ? { "content-type": "application/json" } : undefined;
        const without = await send(strict.url, p.method, p.path, { body: p.body, headers });
        // request-code, verify, logout, dev mailbox: without them nobody could get a session.
        if (route.public) assert.notEqual(without.status, 401, `${name} is public but answered 401`);
        else assertError(without, "UNAUTHORIZED", name);
        // Session routes take a console session only (test/console.auth.test.ts).
        if (route.auth === "session") continue;
        const withKey = await send(strict.url, p.method, p.path, { body: p.body, headers: bearer(key) });
        assert.notEqual(withKey.status, 401, `${name} refused a valid key`);
      }
    });

    it("healthAndDocumentation_stayOpen", async () => {
      for (const path of ["/health", "/api/v1/openapi.json", "/api/v1/reference"]) {
        assert.equal((await send(strict.url, "GET", path)).status, 200, path);
      }
    });
  });
});
