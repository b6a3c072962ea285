import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { requireConfiguredChain } from "../../../core/chain/configured.js";
import { AssetList } from "../../../core/operator/assets.js";

/** The operator's collateral assets and oracle feeds of a chain (admin scope, from the route's tag). */
export const operatorAssetsList: Handler<typeof routes.operatorAssetsList> = async ({ params }, ctx) => {
  requireConfiguredChain(ctx, "params.chainId", params.chainId);
  return new AssetList(ctx.db).list(params.chainId);
};
