import { getAddress, ZeroAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { contract, read, target } from "../../../core/program/target.js";

export const readFactoryAssets: Handler<typeof routes.readFactoryAssets> = async ({ query }, ctx) => {
  const t = await target(ctx, query.program);
  const factory = contract(t, "factory");
  return read(t, "factory", async () => {
    const assets: string[] = await factory.getFunction("assets")();
    const vaults: string[] = await Promise.all(assets.map((a) => factory.getFunction("vaultOf")(a)));
    return assets.map((asset, i) => ({ asset: getAddress(asset), vault: getAddress(vaults[i]) }));
  });
};

export const readFactoryVault: Handler<typeof routes.readFactoryVault> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const vault: string = await read(t, "factory", () => contract(t, "factory").getFunction("vaultOf")(params.asset));
  if (vault === ZeroAddress) throw new ApiError("NOT_FOUND", `asset ${getAddress(params.asset)} is not registered`);
  return { asset: getAddress(params.asset), vault: getAddress(vault) };
};
