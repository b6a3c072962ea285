import { NodeSDK } from "@opentelemetry/sdk-node";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";

/**
 * Starts OpenTelemetry's SDK when an OTLP endpoint is configured, exporting this process's spans
 * over OTLP/HTTP (packages/api/README.md#traces); without one, nothing starts and no span leaves
 * the process. Returns the shutdown, which flushes the spans still queued.
 */
export function startTracing(tracing: { endpoint?: string; serviceName: string }): () => Promise<void> {
  if (!tracing.endpoint) return async () => undefined;
  const sdk = new NodeSDK({
    serviceName: tracing.serviceName,
    traceExporter: new OTLPTraceExporter({ url: tracing.endpoint }),
    // The service makes its own spans (core/tracing/spans.ts); no monkey-patching of modules.
    instrumentations: [],
  });
  sdk.start();
  return () => sdk.shutdown();
}
