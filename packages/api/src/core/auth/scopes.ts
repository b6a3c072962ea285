import type { RouteDef } from "@points/schema";
import { ApiError } from "../errors.js";

/**
 * What an API key may do. `read`: GET routes; `build`: routes that build or simulate
 * transactions; `deploy`: onboarding (it spends the executor's gas); `admin`: operator routes,
 * and implies every other scope.
 */
export const SCOPES = ["build", "read", "admin", "deploy"] as const;
export type Scope = (typeof SCOPES)[number];

/** What `keys create` grants when no --scopes is given: nothing that spends the operator's money. */
export const DEFAULT_SCOPES: readonly Scope[] = ["build", "read"];

export function parseScopes(text: string): Scope[] {
  const scopes = [...new Set(text.split(",").map((s) => s.trim()))].filter((s) => s !== "");
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length || scopes.length === 0) {
    throw new Error(`scopes must be a comma-separated list of ${SCOPES.join(", ")} (got "${text}")`);
  }
  return scopes as Scope[];
}

/** The scope a route needs when it is called with an API key. */
export function scopeOf(route: Pick<RouteDef, "tag" | "method">): Scope {
  if (route.tag === "operator") return "admin";
  if (route.tag === "onboarding") return "deploy";
  return route.method === "get" ? "read" : "build";
}

export function requireScope(granted: readonly Scope[], needed: Scope): void {
  if (granted.includes(needed) || granted.includes("admin")) return;
  throw new ApiError("FORBIDDEN", `this API key lacks the "${needed}" scope`, {
    reason: "scope",
    needed,
    granted,
  });
}
