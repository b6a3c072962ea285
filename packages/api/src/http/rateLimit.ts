import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import type { Config } from "../config/env.js";
import { ApiError } from "../errors.js";
import { callerOf } from "./auth.js";

/**
 * Per API key for callers with a valid key, otherwise per IP (runs after `identify`). Budgets
 * are per minute and per process.
 */
export function rateLimiter(config: Config) {
  const keyId = (res: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(res);
    return caller.kind === "key" ? caller.keyId : undefined;
  };
  return rateLimit({
    windowMs: 60_000,
    limit: (_req, res) => (keyId(res) ? config.rateLimit.perKey : config.rateLimit.perIp),
    keyGenerator: (req, res) => {
      const id = keyId(res);
      return id ? `key:${id}` : `ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
    },
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", "too many requests: slow down and retry after a minute")),
  });
}
