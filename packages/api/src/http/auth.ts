import type { Request } from "express";
import type { RouteDef } from "@points/schema";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";

/**
 * Checks `Authorization: Bearer <key>` where the route (or the operator's switch) requires a
 * key. A key that is sent is always checked, so a wrong key never passes silently.
 */
export async function authenticate(req: Request, route: RouteDef, ctx: Ctx): Promise<string | undefined> {
  const header = req.get("authorization");
  const required = route.auth === "key" || ctx.config.requireApiKey;
  if (!header) {
    if (required) throw new ApiError("UNAUTHORIZED", "this route needs an API key: Authorization: Bearer <key>");
    return undefined;
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError("UNAUTHORIZED", "Authorization must be: Bearer <key>");
  const keyId = await ctx.keys.verify(match[1]);
  if (!keyId) throw new ApiError("UNAUTHORIZED", "API key is unknown or revoked");
  return keyId;
}
