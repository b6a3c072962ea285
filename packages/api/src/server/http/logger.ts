import { randomUUID } from "node:crypto";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { pinoHttp } from "pino-http";
import { activeTraceIds } from "../../core/tracing/spans.js";

/** Structured JSON logs; credentials are redacted wherever they could appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
        "*.privateKey",
        "*.apiKey",
        "*.password",
        "*.secret",
      ],
      censor: "[redacted]",
    },
    // A line written inside a span names its trace (packages/api/README.md#traces).
    mixin: () => activeTraceIds() ?? {},
  } satisfies LoggerOptions;
  return destination ? pino(options, destination) : pino(options);
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * One log line per request, tagged with a request id: the caller's X-Request-Id when sane,
 * else the request's trace id when tracing is on (so logs and traces meet), else a new UUID.
 */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers["x-request-id"];
      const id =
        typeof incoming === "string" && REQUEST_ID.test(incoming)
          ? incoming
          : (activeTraceIds()?.traceId ?? randomUUID());
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
