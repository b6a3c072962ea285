import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import type { RouteDef } from "@points/schema";
import type { Ctx } from "../../core/context.js";
import type { Caller } from "../../core/auth/caller.js";
import { ApiError } from "../../core/errors.js";
import { sessionCookieName } from "./session.js";
import { FailedLookups } from "./rateLimit.js";
import { limitStore } from "./sharedStore.js";
import { requireScope, scopeOf } from "../../core/auth/scopes.js";
import { accountApproved, notApprovedToDeploy } from "../../core/onboarding/permission.js";
import { identityOf, type Identity, type KeyIdentity } from "./identity.js";

export { identityOf, type Identity, type KeyIdentity };

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,512})$/i;

/** One cookie's value from the Cookie header (no cookie-parser: this is the only cookie). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Resolves the API key and the console session cookie, if sent, so the rate limiter can count
 * a valid key or session on its own budget and everything else (no key, a malformed header,
 * an unknown or revoked key) on the caller's IP: inventing keys must not buy fresh budgets.
 */
export function identify(ctx: Ctx): RequestHandler {
  const failed = new FailedLookups(ctx.config.rateLimit.perIp, limitStore(ctx, "rl-failed:"));
  return async (req, res, next) => {
    try {
      // The rate limiter's key for the address: an IPv6 client's whole /56 counts as one, as in
      // the request budget, so rotating addresses in a prefix buys no fresh lookups.
      const ip = ipKeyGenerator(req.ip ?? "unknown");
      // An IP that spent its budget on invented credentials gets no more lookups this minute.
      const lookup = !failed.blocked(ip);
      const header = req.get("authorization");
      let key: KeyIdentity = { kind: "none" };
      if (header !== undefined) {
        const match = BEARER.exec(header);
        const token = match?.[1];
        const verified = token !== undefined && lookup ? await ctx.keys.verify(token) : undefined;
        key = !match
          ? { kind: "malformed" }
          : verified
            ? { kind: "key", keyId: verified.id, scopes: verified.scopes }
            : { kind: "unknown" };
        if (match && lookup && !verified) await failed.hit(ip);
      }
      const identity: Identity = { key };
      const cookie = readCookie(req.get("cookie"), sessionCookieName(ctx.config.production));
      if (cookie) {
        identity.cookie = cookie;
        const email = lookup ? await ctx.console.sessions.resolve(cookie) : undefined;
        if (email) {
          identity.session = { email, token: cookie };
          if (ctx.config.requireApiKey) identity.session.approved = await accountApproved(ctx, email);
        } else if (lookup) await failed.hit(ip);
      }
      res.locals.identity = identity;
      next();
    } catch (e) {
      next(e);
    }
  };
}

/**
 * The WWW-Authenticate challenge of a 401: Bearer for routes that take an API key (with
 * error="invalid_token" when a key was sent and refused, never echoing it), a private scheme for
 * routes only a console session opens. Never Basic: browsers answer that with a login prompt.
 */
export const SESSION_SCHEME = 'PointsSession realm="points"';
export function challengeOf(route: Pick<RouteDef, "auth" | "public">, keyRefused: boolean): string {
  // Public routes never need a key: their 401s are the console sign-in's.
  if (route.auth === "session" || route.public) return SESSION_SCHEME;
  return keyRefused ? 'Bearer realm="points", error="invalid_token"' : 'Bearer realm="points"';
}

/**
 * Enforces the route's auth mode and answers who the caller is. "key" routes (and every
 * non-public route when the operator requires keys) take an API key or a console session;
 * "session" routes only a session. A key that is sent is always checked, so a wrong key never
 * passes silently; a key wins over a session cookie sent alongside it, and must hold the
 * route's scope.
 */
export function authenticate(_req: Request, res: Response, route: RouteDef, ctx: Ctx): Caller {
  const { key, session } = identityOf(res);
  // Set on every answer of a route that can refuse; only a 401 carries it (see errorHandler).
  res.locals.challenge = challengeOf(route, key.kind === "malformed" || key.kind === "unknown");
  if (key.kind === "malformed") throw new ApiError("UNAUTHORIZED", "Authorization must be: Bearer <key>");
  if (key.kind === "unknown") throw new ApiError("UNAUTHORIZED", "API key is unknown or revoked");
  const bySession: Caller | undefined = session && { kind: "session", email: session.email };
  if (route.auth === "session") {
    if (!bySession) throw new ApiError("UNAUTHORIZED", "sign in to the console first (no valid session)");
    return bySession;
  }
  if (key.kind === "key") requireScope(key.scopes, scopeOf(route));
  // A console account is a tenant, never the operator: operator routes take an admin key only.
  else if (scopeOf(route) === "admin" && bySession) {
    throw new ApiError("FORBIDDEN", "operator routes need an API key with the admin scope, not a console session", {
      reason: "scope",
      needed: "admin",
    });
  }
  const caller: Caller = key.kind === "key" ? { kind: "key", id: key.keyId } : (bySession ?? { kind: "anonymous" });
  const required = route.auth === "key" || (ctx.config.requireApiKey && !route.public);
  if (required && caller.kind === "anonymous") {
    throw new ApiError(
      "UNAUTHORIZED",
      "this route needs an API key (Authorization: Bearer <key>) or a console session",
    );
  }
  // With REQUIRE_API_KEY a session stands for a key only once the operator approved its account:
  // anyone can open a session with a fresh e-mail address (packages/api/README.md#configuration).
  if (ctx.config.requireApiKey && caller.kind === "session" && !session?.approved) {
    // On deploy routes the refusal is the deploy permission's own (core/onboarding/permission.ts).
    if (scopeOf(route) === "deploy") throw notApprovedToDeploy();
    throw new ApiError(
      "FORBIDDEN",
      "this operator requires an API key: a console account needs the operator's approval to use this route",
      { reason: "approval" },
    );
  }
  return caller;
}
