import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";

const CLOSED_PORT = "http://127.0.0.1:9";
const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/assets/app-1a2b.js"></script></head></html>';

const BIG = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `"row ${i}"`).join(",")}];`;

describe("console: the API serves the built console at /console/", () => {
  let dist: string;
  let api: TestApi;

  before(async () => {
    dist = mkdtempSync(join(tmpdir(), "console-dist-"));
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), INDEX);
    writeFileSync(join(dist, "assets", "app-1a2b.js"), "console.log('console');");
    writeFileSync(join(dist, "favicon.svg"), "<svg/>");
    writeFileSync(join(dist, "assets", "big-9f8e.js"), BIG);
    api = await startApi(CLOSED_PORT, { CONSOLE_DIST: dist });
  });
  after(async () => {
    await api?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("consoleRoot_servesIndexHtml_notCached", async () => {
    const res = await send(api.url, "GET", "/console/");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(res.text, INDEX);
    assert.equal(res.headers.get("cache-control"), "no-cache");
  });

  it("consoleWithoutSlash_redirectsToTheRoot", async () => {
    const res = await fetch(api.url + "/console", { redirect: "manual" });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get("location"), "/console/");
  });

  it("clientRoutes_fallBackToIndexHtml", async () => {
    for (const path of ["/console/wizard/3", "/console/dashboard/campaigns", "/console/signin"]) {
      const res = await send(api.url, "GET", path);
      assert.equal(res.status, 200, path);
      assert.equal(res.text, INDEX, path);
    }
  });

  it("hashedAssets_areServed_cachedForever", async () => {
    const res = await send(api.url, "GET", "/console/assets/app-1a2b.js");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /javascript/);
    assert.match(res.headers.get("cache-control") ?? "", /immutable/);
    assert.equal((await send(api.url, "GET", "/console/favicon.svg")).status, 200);
  });

  it("assets_areGzipped_forBrowsersThatAskForIt_andPlainOtherwise", async () => {
    const zipped = await send(api.url, "GET", "/console/assets/big-9f8e.js", {
      headers: { "accept-encoding": "gzip" },
    });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    assert.equal(zipped.text, BIG, "the same file once unzipped");
    const plain = await send(api.url, "GET", "/console/assets/big-9f8e.js", {
      headers: { "accept-encoding": "identity" },
    });
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(plain.text, BIG);
  });

  it("missingFiles_andUnknownApiPaths_are404Envelopes_notThePage", async () => {
    for (const path of ["/console/assets/missing.js", "/console/v1/nope", "/console/v1", "/console/dev/other"]) {
      assertError(await send(api.url, "GET", path), "NOT_FOUND", path);
    }
  });

  it("theConsolesApiRoutes_stillAnswer", async () => {
    const res = await send(api.url, "GET", "/console/v1/chains");
    assert.equal(res.status, 200);
    assert.equal(res.body.data[0].chainId, 31337);
  });

  it("securityHeaders_allowTheConsole_selfOnly_withoutUpgradingToHttps", async () => {
    const res = await send(api.url, "GET", "/console/");
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/, "scripts from the console's own origin only, none inline");
    assert.doesNotMatch(csp, /upgrade-insecure-requests/, "a console on plain http (LAN, dev) must keep working");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  });

  it("withoutABuiltConsole_consoleIs404", async () => {
    const bare = await startApi(CLOSED_PORT, { CONSOLE_DIST: join(dist, "does-not-exist") });
    try {
      assertError(await send(bare.url, "GET", "/console/"), "NOT_FOUND");
      assertError(await send(bare.url, "GET", "/console/wizard/1"), "NOT_FOUND");
    } finally {
      await bare.close();
    }
  });
});
