import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { captureLogs } from "./helpers/logs.js";
import { setupE2E, type E2E } from "./helpers/e2e.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";
import { bearerFor, DEPLOY_SCOPES } from "./helpers/service.js";
import { startReceiver } from "./helpers/receiver.js";
import { inSpan } from "../src/core/tracing/spans.js";

// Traces (packages/api/README.md#traces): OpenTelemetry's SDK with an in-memory exporter in this
// process stands in for a collector; the service on a real Hardhat node does real work.
describe("tracing: spans of requests, onboarding tasks and webhook deliveries", () => {
  const exporter = new InMemorySpanExporter();
  const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor({ exporter })], instrumentations: [] });
  const logs = captureLogs();
  let e: E2E;

  before(async () => {
    sdk.start();
    e = await setupE2E(
      {},
      () => ({
        LEDGER: "inline",
        LEDGER_POLL_MS: "20",
        LEDGER_CONFIRMATIONS: "0",
        WEBHOOK_ALLOW_PRIVATE: "1",
        WEBHOOK_POLL_MS: "20",
      }),
      {
        logger: logs.logger("info"),
      },
    );
  });
  after(async () => {
    await e?.stop();
    await sdk.shutdown();
  });

  const spans = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
  const lineOf = (requestId: string) =>
    logs.lines.map((l) => JSON.parse(l)).find((l) => l.req?.id === requestId && l.res?.statusCode !== undefined);
  async function until<T>(find: () => T | undefined, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error("timed out");
      await sleep(20);
    }
  }

  it("buildRequest_isOneServerSpan_namedByItsRouteTemplate_withProgramAndChain_andItsLogLineNamesTheTrace", async () => {
    exporter.reset();
    const res = await e.call("pause", {
      body: { program: "acme", input: { contract: "points" }, key: e.who.brand.address },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [span] = await until(() =>
      spans("POST /api/v1/freeze/pause").length ? spans("POST /api/v1/freeze/pause") : undefined,
    );
    assert.equal(spans("POST /api/v1/freeze/pause").length, 1);
    assert.equal(span!.kind, SpanKind.SERVER);
    assert.deepEqual(
      [
        span!.attributes["http.route"],
        span!.attributes["http.response.status_code"],
        span!.attributes["points.program"],
        span!.attributes["points.chain_id"],
      ],
      ["/api/v1/freeze/pause", 200, "acme", "31337"],
    );
    // No X-Request-Id sent: the request id is the trace id, in the header and on the log line.
    const traceId = span!.spanContext().traceId;
    const line = lineOf(traceId);
    assert.ok(line, "the request's log line carries the trace id as its request id");
    assert.equal(line.traceId, traceId);
  });

  it("callersRequestId_isKept_whileItsLogLineStillNamesTheTrace", async () => {
    exporter.reset();
    const res = await fetch(`${e.api.url}/api/v1/contracts/factories`, {
      headers: { ...e.auth, "x-request-id": "caller-req-7" },
    });
    assert.equal(res.headers.get("x-request-id"), "caller-req-7");
    // The indexer and dispatcher run beside the request and make spans of their own: find the request's.
    const span = await until(() => spans("GET /api/v1/contracts/factories")[0]);
    const line = lineOf("caller-req-7");
    assert.ok(line);
    assert.equal(line.traceId, span.spanContext().traceId);
  });

  it("unmatchedPath_isNamedUnmatched_neverByItsRawPath", async () => {
    exporter.reset();
    const res = await fetch(`${e.api.url}/api/v1/no-such-route/0xdeadbeef`);
    assert.equal(res.status, 404);
    const [span] = await until(() => (spans("GET unmatched").length ? spans("GET unmatched") : undefined));
    assert.equal(span!.attributes["http.response.status_code"], 404);
    assert.equal(span!.status.code, SpanStatusCode.UNSET);
    assert.ok(!exporter.getFinishedSpans().some((s) => s.name.includes("deadbeef")));
  });

  it("onboardingTask_isOneSpan_withItsTaskChainBrandAndProgram", async () => {
    const deployer = await bearerFor(e.api.service, "deployer", [...DEPLOY_SCOPES]);
    const res = await e.api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("traced", e.who.brand.address),
      deployer,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const taskId = (res.body as { data: { taskId: string } }).data.taskId;
    const task = await waitForTask(e.api, taskId, deployer);
    assert.equal(task.status, "succeeded");
    const span = await until(() => spans("onboarding.task").find((s) => s.attributes["points.task_id"] === taskId));
    assert.deepEqual(
      [span.attributes["points.chain_id"], span.attributes["points.brand"], span.attributes["points.program"]],
      ["31337", "traced", (task as { program?: { id: string } }).program?.id],
    );
    assert.equal(span.status.code, SpanStatusCode.UNSET);
  });

  it("indexedRange_andWebhookDelivery_areSpans_withTheirBlocksSubscriptionDeliveryAndAnswer", async () => {
    const rx = await startReceiver();
    try {
      const res = await e.api.call("POST", "/api/v1/ledger/webhooks", { webhookUrl: rx.url, program: "acme" }, e.auth);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const hook = (res.body as { data: { id: string; secret: string } }).data;
      rx.state.secret = hook.secret;
      const brand = e.who.brand;
      const receipt = await (await e.c.points.connect(brand).addToTransferWhitelist(e.who.alice.address)).wait();
      await until(() => (rx.state.accepted.length > 0 ? true : undefined));
      const span = await until(() =>
        spans("webhooks.delivery").find((s: ReadableSpan) => s.attributes["points.subscription"] === hook.id),
      );
      assert.equal(span.attributes["http.response.status_code"], 204);
      assert.equal(span.attributes["points.delivery"], rx.state.accepted[0]!.id);
      assert.equal(span.attributes["points.chain_id"], "31337");
      // The indexer's range that held the event is a span of its own.
      const range = spans("ledger.range").find(
        (s) =>
          Number(s.attributes["points.from_block"]) <= receipt!.blockNumber &&
          Number(s.attributes["points.to_block"]) >= receipt!.blockNumber,
      );
      assert.ok(range, "a ledger.range span covers the event's block");
      assert.equal(range.attributes["points.chain_id"], "31337");
    } finally {
      await rx.close();
    }
  });

  it("inSpan_marksAThrowAsAnError_andRethrowsIt", async () => {
    exporter.reset();
    await assert.rejects(
      inSpan("unit.fails", { "points.x": 1 }, async () => {
        throw new Error("boom");
      }),
      /boom/,
    );
    const [span] = spans("unit.fails");
    assert.equal(span!.status.code, SpanStatusCode.ERROR);
    assert.equal(span!.status.message, "boom");
    assert.equal(span!.events[0]!.name, "exception");
  });
});
