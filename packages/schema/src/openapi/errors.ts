import { ERROR_CODES } from "../envelope.js";
import type { RouteDef } from "../route.js";
import { isBuildRoute } from "../tx.js";

/** What each error code means, as the document's error responses describe it. */
export const ERRORS: Record<string, string> = {
  INVALID_INPUT: "the request is malformed; the message names the field",
  INVALID_ROWS:
    "bulk routes: rows with a bad address, amount or metadata, or duplicates; details.rows lists every one (row, field, reason)",
  UNAUTHORIZED: "missing, unknown or revoked API key, or no console session",
  MISSING_ROLE: "the signer lacks an on-chain role",
  FORBIDDEN:
    "the API key lacks the scope the route needs, the console account is not approved to deploy, or a state-changing request with a session cookie (or to /console/) came from another Origin than the console's (details.reason = origin)",
  DEV_CHAIN_ONLY:
    "a development-only route called for a chain that is not a dev chain id on loopback RPCs, or in production",
  NOT_FOUND: "no such program, campaign (CampaignNotFound, on every route naming one), request, task or resource",
  CONFLICT: "the request conflicts with the resource's state",
  PAYLOAD_TOO_LARGE: "the body is larger than 100 kB (2 MB on bulk routes)",
  WOULD_REVERT: "the simulation reverted, or a chain precondition does not hold",
  RATE_LIMITED: "too many requests: slow down",
  INTERNAL: "an unexpected failure of the service or a service it needs (never the request's fault)",
  CHAIN_UNAVAILABLE: "the chain's RPC did not answer",
  CHAIN_MISMATCH:
    "every RPC endpoint of the chain answers another chain id (a node swapped behind its URL): nothing was built, read or sent; retry once the endpoint serves the chain again",
};

/** Statuses of a route's answers, by error code. */
export function errorCodesOf(route: RouteDef): (keyof typeof ERROR_CODES)[] {
  const codes = new Set<keyof typeof ERROR_CODES>([
    "INVALID_INPUT",
    "NOT_FOUND",
    "RATE_LIMITED",
    "INTERNAL",
    "CHAIN_UNAVAILABLE",
    "CHAIN_MISMATCH",
  ]);
  if (route.auth !== "open" || !route.public) codes.add("UNAUTHORIZED");
  if (route.method !== "get") {
    codes.add("MISSING_ROLE");
    codes.add("WOULD_REVERT");
  }
  if (route.body) codes.add("PAYLOAD_TOO_LARGE");
  // A key sent to any route is checked for the route's scope.
  codes.add("FORBIDDEN");
  // An Idempotency-Key reused with another body, or an explicit nonce already mined.
  if (isBuildRoute(route)) codes.add("CONFLICT");
  for (const c of route.errors ?? []) codes.add(c);
  return [...codes].sort((a, b) => ERROR_CODES[a] - ERROR_CODES[b]);
}
