import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import type { Response } from "express";
import type { Config } from "../config/env.js";
import { ApiError } from "../errors.js";
import { identityOf } from "./auth.js";

/**
 * Per API key for callers with a valid key, per console session for signed-in users,
 * otherwise per IP (runs after `identify`). Budgets are per minute and per process.
 */
export function rateLimiter(config: Config) {
  const bucket = (res: Response) => {
    const { key, session } = identityOf(res);
    return key.kind === "key" ? `key:${key.keyId}` : session ? `session:${session.email}` : undefined;
  };
  return rateLimit({
    windowMs: 60_000,
    limit: (_req, res) => (bucket(res) ? config.rateLimit.perKey : config.rateLimit.perIp),
    keyGenerator: (req, res) => bucket(res) ?? `ip:${ipKeyGenerator(req.ip ?? "unknown")}`,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", "too many requests: slow down and retry after a minute")),
  });
}
