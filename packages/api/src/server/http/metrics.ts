import type { RequestHandler } from "express";
import type { Ctx } from "../../core/context.js";
import { ApiError } from "../../core/errors.js";
import { requireScope } from "../../core/auth/scopes.js";
import { createMetrics, httpAnswered } from "../../core/metrics/index.js";
import type { Identity } from "./identity.js";

/**
 * Counts every answer by its route template (`req.route.path`, set once Express matched a
 * route), never by the raw path: an id in a path would make one series per id.
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const start = process.hrtime.bigint();
  res.on("finish", () => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const template = typeof route === "string" ? route : "unmatched";
    httpAnswered(req.method, template, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
  });
  next();
};

/**
 * `GET /metrics`: Prometheus text, for an API key with the `admin` scope only (the metrics name
 * programs and executor addresses). See packages/api/README.md#metrics-and-alerts.
 */
export function metricsRoute(ctx: Ctx): RequestHandler {
  const metrics = createMetrics({
    db: ctx.db,
    chains: ctx.config.chains.map((c) => ({
      chainId: c.chainId,
      head: () => ctx.chains.get(c.chainId).provider.getBlockNumber(),
    })),
  });
  return async (_req, res, next) => {
    try {
      const { key } = res.locals.identity as Identity;
      if (key.kind !== "key") {
        res.locals.challenge =
          key.kind === "none" ? 'Bearer realm="points"' : 'Bearer realm="points", error="invalid_token"';
        throw new ApiError("UNAUTHORIZED", "GET /metrics needs an API key with the admin scope");
      }
      requireScope(key.scopes, "admin");
      res.type(metrics.contentType).send(await metrics.scrape());
    } catch (e) {
      next(e);
    }
  };
}
