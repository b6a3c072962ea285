import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { configProblems } from "./helpers/config.js";
import { loadConfig } from "../src/index.js";

const CHAINS = JSON.stringify([{ chainId: 1, name: "chain 1", rpcUrl: "https://rpc.example.com" }]);
const KEY = `0x${"1".repeat(64)}`;
const tracingOf = (env: Record<string, string>) => loadConfig({ EXECUTOR_PRIVATE_KEY: KEY, CHAINS, ...env }).tracing;

// Traces leave the process only when an OTLP endpoint is set (packages/api/README.md#traces).
describe("config: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", () => {
  it("unset_meansTracingOff", () => {
    assert.deepEqual(tracingOf({}), { endpoint: undefined, serviceName: "points-api" });
  });

  it("set_isTheExportersUrl_andTheServiceNameFollowsOtelServiceName", () => {
    assert.deepEqual(
      tracingOf({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces",
        OTEL_SERVICE_NAME: "points-eu",
      }),
      { endpoint: "http://collector:4318/v1/traces", serviceName: "points-eu" },
    );
  });

  it("notHttp_isRefusedAtBoot", () => {
    assert.deepEqual(configProblems({ CHAINS, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "grpc://collector:4317" }), [
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http:// or https:// URL",
    ]);
  });
});
