import type { Request, Response } from "express";
import { SESSION_COOKIE } from "@points/schema";
import type { Ctx, HttpExchange } from "../../core/context.js";
import { isLoopbackIp } from "../../core/console/mailer.js";
import { identityOf } from "./identity.js";

/**
 * The session cookie's name. In production it carries the `__Host-` prefix: browsers then
 * accept it only Secure, from this exact host, for path "/", so a sibling subdomain or a
 * plain-http page cannot plant or overwrite it.
 */
export const sessionCookieName = (production: boolean) => (production ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

/**
 * The session cookie's attributes: httpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Secure always in production (behind a TLS-terminating proxy the
 * request itself looks like http) and otherwise when the request came over https, the whole
 * site as path (the console calls /studio/sdk/v1 and /api/v1 routes with it).
 */
const cookieOptions = (req: Request, production: boolean) => ({
  httpOnly: true,
  sameSite: "strict" as const,
  secure: production || req.secure,
  path: "/",
});

/** Both the socket and the address the trusted proxies forwarded are this machine. */
export const isLoopbackRequest = (req: Request): boolean =>
  isLoopbackIp(req.socket.remoteAddress) && isLoopbackIp(req.ip);

export function sessionExchange(req: Request, res: Response, ctx: Ctx): Omit<HttpExchange, "answerStatus"> {
  const production = ctx.config.production;
  const name = sessionCookieName(production);
  return {
    ip: req.ip ?? "unknown",
    loopback: isLoopbackRequest(req),
    sessionToken: identityOf(res).cookie,
    setSessionCookie: (token, expiresAt) =>
      void res.cookie(name, token, {
        ...cookieOptions(req, production),
        maxAge: Math.round((expiresAt.getTime() - Date.now()) / 1000) * 1000,
      }),
    clearSessionCookie: () => void res.clearCookie(name, cookieOptions(req, production)),
  };
}
