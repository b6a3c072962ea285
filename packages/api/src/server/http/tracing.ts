import type { RequestHandler } from "express";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { tracer } from "../../core/tracing/spans.js";

/**
 * One server span per request (packages/api/README.md#traces), active while the request is
 * handled, so every span and log line below it carries its trace id. Named by the route
 * template once Express matched one, never by the raw path (an id in a path is not a name).
 */
export const httpTracing: RequestHandler = (req, res, next) =>
  tracer.startActiveSpan(
    `${req.method} unmatched`,
    { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method } },
    (span) => {
      res.on("close", () => {
        const route = (req.route as { path?: unknown } | undefined)?.path;
        if (typeof route === "string") {
          span.updateName(`${req.method} ${route}`);
          span.setAttribute("http.route", route);
        }
        span.setAttribute("http.response.status_code", res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      next();
    },
  );
