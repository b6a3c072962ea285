import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { routes, type RouteDef } from "@points/schema";
import { scopeOf } from "../src/core/auth/scopes.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { validRequest } from "./helpers/badInput.js";
import { assertError, send } from "./helpers/http.js";
import { cookieHeader, signIn } from "./helpers/console.js";

const CLOSED_PORT = "http://127.0.0.1:9";
/** Every route a key opens (not the console's own, not the operator's admin routes). */
const keyRoutes = Object.entries(routes as Record<string, RouteDef>).filter(
  ([, r]) => !r.public && r.auth !== "session" && scopeOf(r) !== "admin",
);

/** A request that passes auth on `route` and then fails validation without touching a chain. */
function probe(route: RouteDef) {
  const { params } = validRequest(route);
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k]));
  return { method: route.method.toUpperCase(), path, body: route.body ? "{}" : undefined };
}

// With REQUIRE_API_KEY, anyone could open a session with a fresh e-mail address and use it as a key.
describe("http: REQUIRE_API_KEY holds against self-service console sessions", () => {
  let api: TestApi;
  let session: string;
  const email = "stranger@example.com";
  before(async () => {
    api = await startApi(CLOSED_PORT, { REQUIRE_API_KEY: "true", DEV_MAILBOX: "1", RATE_LIMIT_PER_MINUTE_KEY: "1000" });
    session = await signIn(api.url, email);
  });
  after(async () => {
    await api?.close();
  });

  const call = (route: RouteDef) => {
    const p = probe(route);
    return send(api.url, p.method, p.path, {
      body: p.body,
      headers: { ...cookieHeader(session), origin: api.url, "content-type": "application/json" },
    });
  };

  it("attack_aFreshAccountsSession_isRefused403Approval_onEveryKeyRoute", async () => {
    assert.ok(keyRoutes.length > 20, `only ${keyRoutes.length} key routes`);
    for (const [name, route] of keyRoutes) {
      const res = await call(route);
      assertError(res, "FORBIDDEN", name);
      assert.deepEqual(res.body.error.details, { reason: "approval" }, name);
    }
  });

  it("anApprovedAccountsSession_opensThemAgain", async () => {
    assert.equal(await api.service.ctx.console.users.approveDeploys(email), true);
    for (const [name, route] of keyRoutes) {
      const res = await call(route);
      assert.ok(res.status !== 401 && res.status !== 403, `${name} answered ${res.status} ${res.text}`);
    }
  });
});
