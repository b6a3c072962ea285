import { z } from "zod";
import { Address, ConfiguredChainIdParam, TrimmedText } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";

/**
 * The operator's list of collateral assets and oracle feeds a deploy may name on a chain
 * that is not a dev chain (the executor never pays for a token it was not told to trust).
 */
export const AssetKind = z.enum(["collateral", "feed"]).meta({
  description: "collateral: an ERC-20 a program may be backed by; feed: a price feed its Oracle may read",
});

export const ListedAsset = z.object({
  chainId: z.string(),
  kind: AssetKind,
  address: Address,
  label: z.string(),
  addedAt: z.string(),
});

const ChainParams = z.object({ chainId: ConfiguredChainIdParam });
const AssetParams = z.object({ chainId: ConfiguredChainIdParam, kind: AssetKind, address: Address });

export const operatorAssetsList = defineRoute({
  method: "get",
  path: "/api/v1/operator/chains/:chainId/assets",
  summary: "Operator: the collateral assets and oracle feeds deploys may name on this chain (admin key)",
  tag: "operator",
  auth: "key",
  params: ChainParams,
  response: success(z.array(ListedAsset)),
});

export const operatorAssetAdd = defineRoute({
  method: "put",
  path: "/api/v1/operator/chains/:chainId/assets/:kind/:address",
  summary: "Operator: let deploys on this chain name this collateral asset or oracle feed (admin key; idempotent)",
  tag: "operator",
  auth: "key",
  params: AssetParams,
  body: z.strictObject({
    label: TrimmedText(100, true).meta({ description: "What it is, for people (USDC, ETH/USD)" }),
  }),
  response: success(ListedAsset),
});

export const operatorAssetRemove = defineRoute({
  method: "delete",
  path: "/api/v1/operator/chains/:chainId/assets/:kind/:address",
  summary: "Operator: take a collateral asset or oracle feed off this chain's list (admin key); 404 when not listed",
  tag: "operator",
  auth: "key",
  params: AssetParams,
  response: success(z.object({ removed: z.literal(true) })),
});
