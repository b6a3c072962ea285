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
  it("aRunningService_countsThePassesOfEveryJobItRuns_byJobName", async () => {
    const admin = await bearerFor(api.service, "ops-jobs", ["admin"]);
    // This service runs the onboarding worker, the desk, source verification and the webhook
    // dispatcher (the test helper turns the ledger's indexer off). Each has passed at least once
    // soon after start; the bound is wide, the loop ends as soon as every count shows.
    const jobs = ["onboarding", "desk", "verify", "webhooks"];
    const passes = (text: string, job: string) =>
      Number(text.match(new RegExp(`^points_job_passes_total\\{job="${job}",outcome="ok"\\} (\\d+)$`, "m"))?.[1] ?? 0);
    let text = "";
    for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      text = await (await fetch(`${api.url}/metrics`, { headers: admin })).text();
      if (jobs.every((j) => passes(text, j) > 0)) break;
    }
    for (const job of jobs) {
      assert.ok(passes(text, job) > 0, `points_job_passes_total{job="${job}",outcome="ok"} counts its passes`);
      assert.match(text, new RegExp(`^points_job_passes_total\\{job="${job}",outcome="error"\\} \\d+$`, "m"));
      assert.match(text, new RegExp(`^points_job_pass_seconds_count\\{job="${job}"\\} [1-9]\\d*$`, "m"));
      assert.match(text, new RegExp(`^points_job_last_success_timestamp_seconds\\{job="${job}"\\} \\d`, "m"));
    }
    assert.doesNotMatch(text, /job="ledger"/, "a job this service does not run has no series");
    assert.match(text, /^# TYPE points_job_passes_total counter$/m);
    assert.match(text, /^# TYPE points_job_pass_seconds histogram$/m);
    assert.match(text, /^# TYPE points_job_last_success_timestamp_seconds gauge$/m);
  });
});
