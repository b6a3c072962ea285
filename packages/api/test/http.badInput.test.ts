import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { routes, type RouteDef } from "@points/schema";
import { actors, deployProgram, type DevNode, startNode } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { generateCases, validRequest } from "./helpers/badInput.js";
import { assertError, send } from "./helpers/http.js";
import { cookieHeader, signIn } from "./helpers/console.js";

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

// At least 300 generated malformed requests across every
// route (docs/errors.md#the-api-envelope); each answers with the error envelope and a 4xx, and the server keeps serving.
describe("http: bad input on every route", () => {
  let node: DevNode;
  let api: TestApi;
  let auth: Record<string, string>;
  const cases = generateCases();

  before(async () => {
    node = await startNode();
    const { record } = await deployProgram(node.provider);
    // A high key budget: this suite tests validation, not rate limits.
    api = await startApi(node.url, { RATE_LIMIT_PER_MINUTE_KEY: "100000", RATE_LIMIT_BULK_PER_MINUTE: "100000" });
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("bad-input", ["build", "read", "deploy", "admin"]);
    // The key passes "key" routes; the console session passes "session" routes (the wizard).
    auth = { authorization: `Bearer ${key}`, ...cookieHeader(await signIn(api.url, "bad-input@example.com")) };
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("generator_isDeterministic_andCoversEveryRouteWithAtLeast300Cases", () => {
    const again = generateCases();
    assert.deepEqual(
      again.map((c) => [c.name, c.path, c.body]),
      cases.map((c) => [c.name, c.path, c.body]),
    );
    assert.ok(cases.length >= 300, `only ${cases.length} cases`);
    const covered = new Set(cases.map((c) => c.name.split(":")[0]));
    const withInput = Object.entries(routes as Record<string, RouteDef>).filter(
      ([, r]) => r.body || r.params || r.query,
    );
    for (const [name] of withInput) assert.ok(covered.has(name), `no bad-input case for ${name}`);
    console.log(`bad-input suite: ${cases.length} generated cases over ${covered.size} routes`);
  });

  it("generator_baseRequestOfEveryRoute_passesValidation", () => {
    // Each case breaks one thing in this base, so the base itself must be valid.
    for (const [name, route] of Object.entries(routes as Record<string, RouteDef>)) {
      const { params, body } = validRequest(route);
      if (route.params) assert.ok(route.params.safeParse(params).success, `${name} params`);
      if (route.body) assert.ok(route.body.safeParse(body).success, `${name} body`);
    }
  });

  it("everyMalformedRequest_answersTheEnvelope_with4xx_namingTheBadField", async () => {
    // Eight at a time: the cases are independent and the suite stays quick on 2 cores.
    await inBatches(cases, 8, async (c) => {
      const headers: Record<string, string> = { ...auth };
      if (c.body !== undefined || c.contentType) headers["content-type"] = c.contentType ?? "application/json";
      const res = await send(api.url, c.method.toUpperCase(), c.path, { body: c.body, headers });
      assertError(res, c.expect, c.name);
      if (c.names) assert.ok(res.body.error.message.includes(c.names), `${c.name}: "${res.body.error.message}"`);
      if (c.expect === "INVALID_INPUT" && res.body.error.details) {
        for (const issue of res.body.error.details.issues) {
          assert.match(issue.field, /^(body|params|query)\b/, c.name);
          assert.equal(typeof issue.message, "string", c.name);
        }
      }
    });
  });

  it("afterTheWholeSuite_theServerStillServesValidReadsAndBuilds", async () => {
    const state = await api.call("GET", "/api/v1/evm/factory/state");
    assert.equal(state.status, 200, JSON.stringify(state.body));
    assert.equal(state.body.success, true);
    const { brand, alice } = actors(node.provider);
    const built = await api.call(
      "POST",
      "/studio/sdk/v1/tx/whitelist/mint/add",
      { account: alice.address, from: brand.address },
      auth,
    );
    assert.equal(built.status, 200, JSON.stringify(built.body));
    assert.equal(built.body.data.from, brand.address);
  });

  it("lowercaseAndChecksummedAddresses_areBothAccepted", async () => {
    // The other side of the checksum rule: any single case is fine (docs/rules.md#http-conventions).
    const { alice } = actors(node.provider);
    for (const address of [alice.address, alice.address.toLowerCase(), "0x" + alice.address.slice(2).toUpperCase()]) {
      const res = await api.call("GET", `/api/v1/evm/balance/${address}`);
      assert.equal(res.status, 200, `${address}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data.address, alice.address);
    }
  });
});
