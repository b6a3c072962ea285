import type { Request, Response } from "express";
import { SESSION_COOKIE } from "@points/schema";
import type { Ctx, HttpExchange } from "../context.js";
import { identityOf } from "./auth.js";

/**
 * The session cookie's attributes: httpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Secure when the request came over https, the whole site as path
 * (the console calls /studio/sdk/v1 and /api/v1 routes with it).
 */
const cookieOptions = (req: Request) => ({
  httpOnly: true,
  sameSite: "strict" as const,
  secure: req.secure,
  path: "/",
});

export function sessionExchange(req: Request, res: Response, _ctx: Ctx): HttpExchange {
  return {
    ip: req.ip ?? "unknown",
    sessionToken: identityOf(res).cookie,
    setSessionCookie: (token, expiresAt) =>
      void res.cookie(SESSION_COOKIE, token, {
        ...cookieOptions(req),
        maxAge: Math.round((expiresAt.getTime() - Date.now()) / 1000) * 1000,
      }),
    clearSessionCookie: () => void res.clearCookie(SESSION_COOKIE, cookieOptions(req)),
  };
}
