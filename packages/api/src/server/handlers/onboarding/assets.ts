import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { requireConfiguredChain } from "../../../core/chain/configured.js";
import { notFound } from "../../../core/errors.js";
import { AssetList } from "../../../core/operator/assets.js";

/** The operator's collateral assets and oracle feeds of a chain (admin scope, from the route's tag). */
export const operatorAssetsList: Handler<typeof routes.operatorAssetsList> = async ({ params }, ctx) => {
  requireConfiguredChain(ctx, "params.chainId", params.chainId);
  return new AssetList(ctx.db).list(params.chainId);
};

/** Lets deploys on a chain name this collateral asset or oracle feed (admin scope). */
export const operatorAssetAdd: Handler<typeof routes.operatorAssetAdd> = async ({ params, body }, ctx) => {
  requireConfiguredChain(ctx, "params.chainId", params.chainId);
  return new AssetList(ctx.db).add(params.chainId, params.kind, params.address, body.label);
};

/** Takes a collateral asset or oracle feed off a chain's list (admin scope); tasks already queued keep it. */
export const operatorAssetRemove: Handler<typeof routes.operatorAssetRemove> = async ({ params }, ctx) => {
  requireConfiguredChain(ctx, "params.chainId", params.chainId);
  if (!(await new AssetList(ctx.db).remove(params.chainId, params.kind, params.address))) {
    throw notFound(`${params.kind} ${params.address} is not on chain ${params.chainId}'s list`);
  }
  return { removed: true as const };
};
