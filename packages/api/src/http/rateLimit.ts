import { createHash } from "node:crypto";
import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import type { Config } from "../config/env.js";
import { ApiError } from "../errors.js";

/** Per API key when one is sent (hashed, never kept in clear), otherwise per IP. */
export function rateLimiter(config: Config) {
  const bearer = (auth: string | undefined) => /^Bearer\s+(\S+)$/i.exec(auth ?? "")?.[1];
  return rateLimit({
    windowMs: 60_000,
    limit: (req) => (bearer(req.get("authorization")) ? config.rateLimit.perKey : config.rateLimit.perIp),
    keyGenerator: (req) => {
      const key = bearer(req.get("authorization"));
      return key
        ? `key:${createHash("sha256").update(key).digest("hex")}`
        : `ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
    },
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", "too many requests: slow down and retry after a minute")),
  });
}
