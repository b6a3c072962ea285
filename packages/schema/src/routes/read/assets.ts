import { z } from "zod";
import { Address } from "../../primitives.js";
import { success } from "../../envelope.js";
import { programRead } from "./common.js";

export const readFactoryAssets = programRead({
  path: "/api/v1/evm/factory/assets",
  summary: "Registered collateral assets",
  response: success(z.array(z.object({ asset: Address, vault: Address }))),
});

export const readFactoryVault = programRead({
  path: "/api/v1/evm/factory/vault/:asset",
  summary: "CollateralVault of an asset",
  params: z.object({ asset: Address }),
  response: success(z.object({ asset: Address, vault: Address })),
});
