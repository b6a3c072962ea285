import { SpanStatusCode, isSpanContextValid, trace, type Attributes, type Span } from "@opentelemetry/api";

/**
 * The service's spans (packages/api/README.md#traces). Without a configured exporter the global
 * tracer is OpenTelemetry's no-op one, so a span costs next to nothing.
 */
export const tracer = trace.getTracer("@points/api");

/** Runs `work` as the active span `name`; a throw marks the span as failed and is rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (e) {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** The active span's trace and span ids, when a real span is active (for log lines). */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const c = span.spanContext();
  return isSpanContextValid(c) ? { traceId: c.traceId, spanId: c.spanId } : undefined;
}
