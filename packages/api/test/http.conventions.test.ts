import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { compileErrors, validate } from "@readme/openapi-parser";
import { fileRoutes, routes, type RouteDef } from "@points/schema";
import { OPS_OPERATIONS } from "@points/schema/openapi";
import { startApi, type TestApi } from "./helpers/service.js";
import { validRequest } from "./helpers/badInput.js";
import { assertError, send } from "./helpers/http.js";

// No chain is needed here: every request below is answered before a handler runs.
const CLOSED_PORT = "http://127.0.0.1:9";
const table = Object.entries(routes as Record<string, RouteDef>);
const concretePath = (route: RouteDef) => {
  const { params } = validRequest(route);
  return route.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k]));
};

describe("http: conventions", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi(CLOSED_PORT);
  });
  after(async () => {
    await api?.close();
  });

  describe("unknown routes and wrong methods", () => {
    it("unknownRoute_is404NotFound_inTheEnvelope", async () => {
      for (const path of ["/", "/nope", "/api/v1/nope", "/api/v2/build/mint", "/studio/sdk/v1/tx/psp/nope"]) {
        for (const method of ["GET", "POST", "DELETE"]) {
          assertError(await send(api.url, method, path), "NOT_FOUND", `${method} ${path}`);
        }
      }
    });

    it("wrongMethod_onEveryRouteOfTheTable_is405_withAllowListingTheServedMethods_inTheEnvelope", async () => {
      const served = new Map<string, string[]>();
      for (const [, r] of table) served.set(r.path, [...(served.get(r.path) ?? []), r.method.toUpperCase()]);
      let checked = 0;
      for (const [name, route] of table) {
        const path = concretePath(route);
        const mine = served.get(route.path)!;
        const allow = [...new Set([...mine, ...(mine.includes("GET") ? ["HEAD"] : []), "OPTIONS"])].sort().join(", ");
        const others = ["get", "post", "put", "delete", "patch"].filter((m) => !mine.includes(m.toUpperCase()));
        for (const method of others) {
          const res = await send(api.url, method.toUpperCase(), path);
          assertError(res, "METHOD_NOT_ALLOWED", `${name} via ${method}`);
          assert.equal(res.headers.get("allow"), allow, `${name} via ${method}`);
          checked++;
        }
      }
      assert.ok(checked >= table.length * 3);
    });

    it("optionsAndHead_onAPostRoute_areNotAnAutomaticAnswer_options200WithAllow_head405", async () => {
      const options = await send(api.url, "OPTIONS", "/api/v1/build/mint");
      assert.equal(options.status, 200);
      assert.equal(options.headers.get("allow"), "OPTIONS, POST");
      assert.deepEqual(options.body, { success: true, data: { allow: ["OPTIONS", "POST"] } });
      const head = await send(api.url, "HEAD", "/api/v1/build/mint");
      assert.equal(head.status, 405);
      assert.equal(head.headers.get("allow"), "OPTIONS, POST");
    });

    it("badPercentEncodingInThePath_is400InvalidInput", async () => {
      assertError(await send(api.url, "GET", "/api/v1/evm/balance/%ZZ"), "INVALID_INPUT");
    });
  });

  describe("OpenAPI document and reference page", () => {
    it("openapiJson_isAValidOpenApi31Document", async () => {
      const res = await send(api.url, "GET", "/api/v1/openapi.json");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(res.body.openapi, "3.1.0");
      const result = await validate(structuredClone(res.body));
      assert.ok(result.valid, result.valid ? "" : compileErrors(result));
      // The validator is not vacuous: the same document with one broken operation fails.
      const broken = structuredClone(res.body);
      broken.paths["/broken"] = { get: { responses: "none" } };
      assert.equal((await validate(broken)).valid, false);
    });

    it("openapiJson_listsEveryRouteOfTheTable_withItsMethodAndAuth", async () => {
      const doc = (await send(api.url, "GET", "/api/v1/openapi.json")).body;
      let operations = 0;
      for (const ops of Object.values(doc.paths) as Record<string, unknown>[]) operations += Object.keys(ops).length;
      // The file routes (CSV exports) are operations of their own, outside the JSON table.
      const files = Object.keys(fileRoutes).length;
      assert.equal(operations, table.length + files + OPS_OPERATIONS.length, "one operation per route, no more");
      for (const [name, route] of table) {
        const path = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
        const op = doc.paths[path]?.[route.method];
        assert.ok(op, `${route.method.toUpperCase()} ${path} (${name}) is missing`);
        assert.equal(op.operationId, name);
        const security = { open: [], key: [{ apiKey: [] }, { consoleSession: [] }], session: [{ consoleSession: [] }] };
        assert.deepEqual(op.security, security[route.auth], `${name} security`);
        if (route.body) assert.ok(op.requestBody, `${name} request body`);
        for (const param of route.path.match(/:([A-Za-z]+)/g) ?? []) {
          const p = op.parameters?.find((x: { name: string; in: string }) => x.name === param.slice(1));
          assert.equal(p?.in, "path", `${name} path parameter ${param}`);
        }
      }
    });

    it("reference_servesAnHtmlPage_namingEveryOperation", async () => {
      const res = await send(api.url, "GET", "/api/v1/reference");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(res.text, /^<!doctype html>/i);
      for (const [name, route] of table) {
        assert.ok(res.text.includes(`id="${name}"`), `${name} missing from the reference`);
        assert.ok(res.text.includes(`${route.method.toUpperCase()} `), name);
      }
    });
  });

  describe("security headers and request ids", () => {
    const kinds: [string, string, string][] = [
      ["success", "GET", "/health"],
      ["json document", "GET", "/api/v1/openapi.json"],
      ["not found", "GET", "/nope"],
      ["invalid input", "GET", "/api/v1/evm/balance/0x12"],
      ["bad json", "POST", "/api/v1/build/mint"],
    ];

    it("helmetHeaders_arePresent_andXPoweredByIsAbsent_onSuccessAndErrorAlike", async () => {
      for (const [kind, method, path] of kinds) {
        const headers = method === "POST" ? { "content-type": "application/json" } : undefined;
        const res = await send(api.url, method, path, { body: method === "POST" ? "{" : undefined, headers });
        const h = res.headers;
        assert.equal(h.get("x-content-type-options"), "nosniff", kind);
        assert.equal(h.get("x-frame-options"), "SAMEORIGIN", kind);
        assert.match(h.get("strict-transport-security") ?? "", /max-age=\d+/, kind);
        assert.match(h.get("content-security-policy") ?? "", /default-src 'self'/, kind);
        assert.equal(h.get("referrer-policy"), "no-referrer", kind);
        assert.equal(h.get("cross-origin-opener-policy"), "same-origin", kind);
        assert.equal(h.get("x-dns-prefetch-control"), "off", kind);
        assert.equal(h.get("x-powered-by"), null, kind);
      }
    });

    it("xRequestId_isEchoed_whenTheCallerSendsASaneOne", async () => {
      const res = await send(api.url, "GET", "/health", { headers: { "x-request-id": "trace-42.a_b" } });
      assert.equal(res.headers.get("x-request-id"), "trace-42.a_b");
      const err = await send(api.url, "GET", "/nope", { headers: { "x-request-id": "trace-43" } });
      assert.equal(err.headers.get("x-request-id"), "trace-43");
    });

    it("xRequestId_isGenerated_whenAbsentOrUnsafe", async () => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
      const a = (await send(api.url, "GET", "/health")).headers.get("x-request-id");
      const b = (await send(api.url, "GET", "/health")).headers.get("x-request-id");
      assert.match(a ?? "", uuid);
      assert.match(b ?? "", uuid);
      assert.notEqual(a, b);
      // Only [A-Za-z0-9._-]{1,64} is echoed: anything else could forge or break log lines.
      for (const bad of ["has space", "x".repeat(65), "a%0d%0aSet-Cookie:x", "<script>"]) {
        const res = await send(api.url, "GET", "/health", { headers: { "x-request-id": bad } });
        assert.match(res.headers.get("x-request-id") ?? "", uuid, bad);
      }
    });
  });
});
