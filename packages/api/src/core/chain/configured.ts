import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";

/** A chain id a request names must be one this server serves (400 naming the field otherwise). */
export function requireConfiguredChain(ctx: Ctx, field: string, chainId: number | string): void {
  if (!ctx.config.chains.some((c) => c.chainId === Number(chainId))) {
    throw new ApiError("INVALID_INPUT", `${field}: ${chainId} is not a chain this server deploys to`, {
      issues: [{ field, message: "is not a configured chain (see GET /console/v1/chains)" }],
    });
  }
}
