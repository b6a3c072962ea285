import type { Request, RequestHandler, Response } from "express";
import type { RouteDef } from "@points/schema";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,512})$/i;

/** What the Authorization header said, resolved once per request (before rate limiting). */
export type Caller = { kind: "none" } | { kind: "malformed" } | { kind: "unknown" } | { kind: "key"; keyId: string };

export const callerOf = (res: Response): Caller => (res.locals.caller as Caller | undefined) ?? { kind: "none" };

/**
 * Resolves the API key, if one is sent, so the rate limiter can count a valid key on its own
 * budget and everything else (no key, a malformed header, an unknown or revoked key) on the
 * caller's IP: inventing keys must not buy fresh budgets.
 */
export function identify(ctx: Ctx): RequestHandler {
  return async (req, res, next) => {
    try {
      const header = req.get("authorization");
      let caller: Caller = { kind: "none" };
      if (header !== undefined) {
        const match = BEARER.exec(header);
        const keyId = match ? await ctx.keys.verify(match[1]) : undefined;
        caller = !match ? { kind: "malformed" } : keyId ? { kind: "key", keyId } : { kind: "unknown" };
      }
      res.locals.caller = caller;
      next();
    } catch (e) {
      next(e);
    }
  };
}

/**
 * Enforces `Authorization: Bearer <key>` where the route (or the operator's switch) requires a
 * key. A key that is sent is always checked, so a wrong key never passes silently.
 */
export function authenticate(_req: Request, res: Response, route: RouteDef, ctx: Ctx): string | undefined {
  const caller = callerOf(res);
  const required = route.auth === "key" || ctx.config.requireApiKey;
  switch (caller.kind) {
    case "none":
      if (required) throw new ApiError("UNAUTHORIZED", "this route needs an API key: Authorization: Bearer <key>");
      return undefined;
    case "malformed":
      throw new ApiError("UNAUTHORIZED", "Authorization must be: Bearer <key>");
    case "unknown":
      throw new ApiError("UNAUTHORIZED", "API key is unknown or revoked");
    case "key":
      return caller.keyId;
  }
}
