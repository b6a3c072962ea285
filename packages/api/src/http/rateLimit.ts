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

/**
 * Runs before `identify`, keyed on the IP only, with the larger of the two budgets: a flood
 * of requests carrying invented API keys or session cookies is cut off before each of them
 * costs a database lookup. Keyed callers sharing one address share this ceiling.
 */
export function ipRateLimiter(config: Config) {
  return rateLimit({
    windowMs: 60_000,
    limit: Math.max(config.rateLimit.perIp, config.rateLimit.perKey),
    keyGenerator: (req) => `pre:${ipKeyGenerator(req.ip ?? "unknown")}`,
    standardHeaders: false,
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", "too many requests: slow down and retry after a minute")),
  });
}
