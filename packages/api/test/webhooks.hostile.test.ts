import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { placeholderProgram } from "./helpers/records.js";
import { assertError, send } from "./helpers/http.js";

const HOOKS = "/api/v1/ledger/webhooks";

describe("webhooks: hostile targets and keys", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi("http://127.0.0.1:9", { WEBHOOKS: "off", RPC_TIMEOUT_MS: "500" });
    await api.service.ctx.programs.insert(placeholderProgram());
  });
  after(() => api?.close());

  const subscribe = (headers: Record<string, string>, webhookUrl: string) =>
    send(api.url, "POST", HOOKS, {
      body: JSON.stringify({ webhookUrl }),
      headers: { "content-type": "application/json", ...headers },
    });

  // Item 19: ipaddr calls IPv4-compatible IPv6 (::127.0.0.1 = [::7f00:1]) "unicast".
  it("attack_ipv4CompatibleAndOtherNonGlobalIpv6Targets_are400", async () => {
    const key = await bearerFor(api.service, "hooks", ["build", "read"]);
    for (const url of [
      "http://[::127.0.0.1]/",
      "http://[::7f00:1]:8545/hooks",
      "http://[::a9fe:a9fe]/latest/meta-data",
      "http://[::10.0.0.1]/",
      "http://[64:ff9b::7f00:1]/",
      "http://[2002:7f00:1::]/",
      "http://[100::1]/",
      "http://[fc00::1]/",
      "http://[fe80::1]/",
    ]) {
      const res = await subscribe(key, url);
      assertError(res, "INVALID_INPUT", url);
      assert.deepEqual(
        res.body.error.details.issues,
        [{ field: "webhookUrl", message: "points at a private, loopback or link-local address" }],
        url,
      );
    }
    const ok = await subscribe(key, "https://[2001:4860:4860::8888]/hooks");
    assert.equal(ok.status, 201);
  });

  // Item 14: a subscription delivers ledger history, which a key without `read` may not read.
  it("attack_aBuildOnlyKey_subscribesToLedgerWebhooks_is403Scope_andNothingIsStored", async () => {
    const buildOnly = await bearerFor(api.service, "builder", ["build"]);
    const before = (await api.service.ctx.db.query("SELECT id FROM webhook_subscriptions")).length;
    const res = await subscribe(buildOnly, "https://8.8.8.8/hooks");
    assertError(res, "FORBIDDEN");
    assert.deepEqual(res.body.error.details, { reason: "scope", needed: "read", granted: ["build"] });
    assert.equal((await api.service.ctx.db.query("SELECT id FROM webhook_subscriptions")).length, before);
    for (const [method, path] of [
      ["GET", HOOKS],
      ["POST", `${HOOKS}/00000000-0000-4000-8000-000000000000/replay`],
    ] as const) {
      const other = await send(api.url, method, path, {
        body: method === "POST" ? "{}" : undefined,
        headers: { "content-type": "application/json", ...buildOnly },
      });
      assertError(other, "FORBIDDEN", path);
    }
    const reader = await bearerFor(api.service, "reader", ["read"]);
    assert.equal((await subscribe(reader, "https://8.8.8.8/hooks")).status, 201);
  });
});
