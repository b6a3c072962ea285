import express, { type RequestHandler } from "express";
import { rateLimit, ipKeyGenerator, type Store } from "express-rate-limit";
import { ApiError } from "../../core/errors.js";
import { identityOf } from "./identity.js";
import type { Config } from "../../core/config/env.js";

/** Where the bulk routes live (docs/rules.md#bulk-requests). */
export const BULK_PREFIX = "/studio/sdk/v1/bulk/";
/** A 10,000-row request is about 1 MB as JSON: 2 MB lets it through and still bounds memory. */
export const BULK_BODY_LIMIT = "2mb";

const isBulk = (path: string) => path.startsWith(BULK_PREFIX);

/**
 * The bulk routes' own body limit and rate limit (RATE_LIMIT_BULK_PER_MINUTE per API key, session or
 * IP, on top of the general budget), mounted before the app's 100 kB parser (which
 * then skips an already parsed body). Every other route keeps its limits.
 */
export function bulkLimits(config: Config, store?: Store): RequestHandler[] {
  const json = express.json({ limit: BULK_BODY_LIMIT, strict: false });
  const limiter = rateLimit({
    windowMs: 60_000,
    ...(store && { store }),
    // The shared counters live in the database: when it is down the request goes on (and fails or not on its
    // own merits, /ready saying why) rather than every route answering 500 from inside the limiter.
    passOnStoreError: true,
    limit: config.rateLimit.bulk,
    keyGenerator: (req, res) => {
      const { key, session } = identityOf(res);
      if (key.kind === "key") return `bulk:key:${key.keyId}`;
      return session ? `bulk:session:${session.email}` : `bulk:ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
    },
    standardHeaders: false,
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new ApiError("RATE_LIMITED", `too many bulk requests: at most ${config.rateLimit.bulk} a minute`)),
  });
  return [
    (req, res, next) => (isBulk(req.path) ? limiter(req, res, next) : next()),
    (req, res, next) => (isBulk(req.path) ? json(req, res, next) : next()),
  ];
}
