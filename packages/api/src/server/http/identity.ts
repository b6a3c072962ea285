import type { Response } from "express";
import type { Scope } from "../../core/auth/scopes.js";

// Its own file so that auth, sessions and rate limits read the identity without importing each other.

/** What the Authorization header said, resolved once per request (before rate limiting). */
export type KeyIdentity =
  { kind: "none" } | { kind: "malformed" } | { kind: "unknown" } | { kind: "key"; keyId: string; scopes: Scope[] };

/** The request's credentials: the Authorization header's verdict and a live console session, if any. */
export interface Identity {
  key: KeyIdentity;
  /** `approved`: the operator approved the account (looked up only when REQUIRE_API_KEY is on). */
  session?: { email: string; token: string; approved?: boolean };
  /** The session cookie's value, live or not (logout revokes whatever it names). */
  cookie?: string;
}

export const identityOf = (res: Response): Identity =>
  (res.locals.identity as Identity | undefined) ?? { key: { kind: "none" } };
