import { z } from "zod";
import { Address, UintText } from "../../primitives.js";
import { success } from "../../envelope.js";
import { programRead } from "./common.js";

export const AssetView = z.object({
  asset: Address,
  vault: Address,
  decimals: z.number().int(),
  symbol: z.string().meta({ description: "The token's symbol; invalid UTF-8 and NUL read as U+FFFD" }),
  collateral: UintText.meta({ description: "Asset held by the vault, in the asset's units" }),
  pegged: z.boolean().nullable().meta({ description: "Oracle peg status; null without an oracle" }),
});

export const readFactoryState = programRead({
  path: "/api/v1/evm/factory/state",
  summary: "Factory state: basket mode, pause, fees, supply, collateral per asset",
  response: success(
    z.object({
      factory: Address,
      points: Address,
      oracle: Address.nullable(),
      paused: z.boolean(),
      pointsPaused: z.boolean(),
      basketMode: z.boolean(),
      basketModeForced: z.boolean(),
      mintFeeBps: z.number().int(),
      redeemFeeBps: z.number().int(),
      feeReceiver: Address,
      redeemDelay: z.number().int(),
      redeemRequestCount: UintText,
      totalSupply: UintText,
      transferRestricted: z.boolean(),
      assets: z.array(AssetView),
      blockNumber: z.number().int(),
    }),
  ),
});
