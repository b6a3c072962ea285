import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import type { Program } from "../../../core/registry/programs.js";

const CONTRACT_KEYS = ["factory", "points", "collateralVault", "pspVault", "oracle"] as const;

/**
 * What of a program's metadata the open registry shows: facts anyone can read on chain. The
 * organization, the deployer and the onboarding task are the tenant's (its task route shows them).
 */
const PUBLIC_METADATA = ["token", "collateralAsset"] as const;

/** A program as JSON, with explorer links when its chain has an explorer. */
export function programView(ctx: Ctx, p: Program) {
  const explorerUrl = ctx.chains.has(p.chainId) ? ctx.chains.get(p.chainId).config.explorerUrl : null;
  const explorer = explorerUrl
    ? Object.fromEntries(
        CONTRACT_KEYS.filter((k) => p[k]).map((k) => [k, `${explorerUrl.replace(/\/$/, "")}/address/${p[k]}`]),
      )
    : null;
  const metadata = Object.fromEntries(PUBLIC_METADATA.filter((k) => k in p.metadata).map((k) => [k, p.metadata[k]]));
  return { ...p, metadata, explorer };
}

export const listFactories: Handler<typeof routes.listFactories> = async (_input, ctx) =>
  (await ctx.programs.list()).map((p) => programView(ctx, p));

export const getFactory: Handler<typeof routes.getFactory> = async ({ params }, ctx) =>
  programView(ctx, await ctx.programs.get(params.id));

export const listChainContracts: Handler<typeof routes.listChainContracts> = async ({ params }, ctx) => {
  ctx.chains.get(params.chainId);
  const programs = await ctx.programs.listByChain(params.chainId);
  return { chainId: params.chainId, programs: programs.map((p) => programView(ctx, p)) };
};
