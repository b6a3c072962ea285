import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startNode, type DevNode } from "@points/testkit";
import { bearerFor, startApi, type TestApi } from "./helpers/service.js";

describe("GET /metrics: Prometheus text for an admin-scoped API key only", () => {
  let node: DevNode;
  let api: TestApi;

  before(async () => {
    node = await startNode();
    api = await startApi(node.url);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("noKey_is401_andAReadScopedKey_is403Forbidden", async () => {
    const none = await api.call("GET", "/metrics");
    assert.equal(none.status, 401);
    assert.equal((none.body as { error: { code: string } }).error.code, "UNAUTHORIZED");
    const read = await api.call("GET", "/metrics", undefined, await bearerFor(api.service, "reader", ["read"]));
    assert.equal(read.status, 403);
    assert.deepEqual((read.body as { error: { code: string; details: unknown } }).error.details, {
      reason: "scope",
      needed: "admin",
      granted: ["read"],
    });
  });

  it("anAdminKey_getsPrometheusText_countingRequestsByRouteTemplate", async () => {
    const admin = await bearerFor(api.service, "ops", ["admin"]);
    assert.equal((await api.call("GET", "/ready")).status, 200);
    assert.equal((await api.call("GET", "/api/v1/onboarding/tasks/no-such-task", undefined, admin)).status, 404);
    const res = await fetch(`${api.url}/metrics`, { headers: admin });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.match(text, /^points_http_requests_total\{method="GET",route="\/ready",status="200"\} [1-9]\d*$/m);
    assert.doesNotMatch(text, /no-such-task/, "raw paths never become labels");
    assert.match(text, /^points_onboarding_tasks\{state="queued"\} 0$/m);
    assert.match(text, /^points_webhook_pending_deliveries 0$/m);
    assert.match(text, /^points_webhook_dead_endpoints 0$/m);
    assert.match(text, /^# TYPE points_http_request_duration_seconds histogram$/m);
    assert.match(text, /^# TYPE points_engine_replacements_total counter$/m);
    assert.match(text, /^# TYPE points_ledger_reorgs_total counter$/m);
    assert.match(text, /^# TYPE points_desk_gas_used_today gauge$/m);
  });
});
