import type { RequestHandler } from "express";
import type { Ctx } from "../../core/context.js";
import { ApiError } from "../../core/errors.js";
import { readiness } from "../../core/health/readiness.js";

/** `GET /ready`: 200 with every check, or 503 NOT_READY naming the failed ones (docs/errors.md). */
export function readyRoute(ctx: Ctx): RequestHandler {
  return async (_req, res, next) => {
    try {
      const { ready, checks } = await readiness(ctx.config, ctx.db, ctx.redis);
      if (ready) return void res.json({ success: true, data: { ready, checks } });
      const failed = checks.filter((c) => !c.ok).map((c) => c.name);
      throw new ApiError("NOT_READY", `this instance cannot serve: ${failed.join(", ")} failed`, { checks });
    } catch (e) {
      next(e);
    }
  };
}
