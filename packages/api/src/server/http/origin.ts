import type { RequestHandler } from "express";
import type { Ctx } from "../../core/context.js";
import { ApiError } from "../../core/errors.js";
import { identityOf } from "./identity.js";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery: a browser on another site can POST a form (no preflight) to a
 * console route and its session cookie may ride along where SameSite does not stop it. Every
 * state-changing request that carries a session cookie, or goes to a console route, must come
 * from the console's own origin when it names one (browsers send Origin on every POST):
 * CONSOLE_ORIGIN when set, else this server's. A request without Origin is not a browser's
 * cross-site request and passes.
 */
export function sameOriginWrites(ctx: Ctx): RequestHandler {
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (!req.path.startsWith("/console/") && identityOf(res).cookie === undefined) return next();
    const own = ctx.config.console.origin ?? `${req.protocol}://${req.headers.host ?? ""}`;
    if (origin === own) return next();
    next(
      new ApiError("FORBIDDEN", `requests that change state must come from ${own}, not ${origin}`, {
        reason: "origin",
      }),
    );
  };
}
