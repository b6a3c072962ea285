import { isBuildRoute, type RouteDef } from "@points/schema";
import type { Ctx } from "../../core/context.js";
import type { Caller } from "../../core/auth/caller.js";
import { ApiError } from "../../core/errors.js";

/**
 * Open build routes (the schema's `isBuildRoute`, the one definition; each costs the operator
 * several RPC calls) are a free proxy to the operator's RPC, which on a real chain is paid by
 * the call: there they need an API key or a console session, unless the operator opts out
 * (PUBLIC_MAINNET_BUILDS). Testnets stay open. Routes that need a key refuse anonymous callers
 * before this check.
 */
export async function requireKeyOffTestnet(
  route: RouteDef,
  caller: Caller,
  params: { chainId?: string } | undefined,
  body: { program?: string } | undefined,
  ctx: Ctx,
): Promise<void> {
  if (caller.kind !== "anonymous" || ctx.config.publicMainnetBuilds || !isBuildRoute(route)) return;
  const chainId = params?.chainId ?? (await ctx.programs.resolve(body?.program)).chainId;
  if (!ctx.chains.has(chainId)) return;
  const chain = ctx.chains.get(chainId).config;
  if (!chain.testnet) {
    throw new ApiError(
      "UNAUTHORIZED",
      `building transactions on chain ${chain.chainId} (${chain.name}, not a testnet) needs an API key (Authorization: Bearer <key>)`,
    );
  }
}
