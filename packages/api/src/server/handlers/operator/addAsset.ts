import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { requireConfiguredChain } from "../../../core/chain/configured.js";
import { AssetList } from "../../../core/operator/assets.js";

/** Lets deploys on a chain name this collateral asset or oracle feed (admin scope). */
export const operatorAssetAdd: Handler<typeof routes.operatorAssetAdd> = async ({ params, body }, ctx) => {
  requireConfiguredChain(ctx, "params.chainId", params.chainId);
  return new AssetList(ctx.db).add(params.chainId, params.kind, params.address, body.label);
};
