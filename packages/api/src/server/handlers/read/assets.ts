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
    return Promise.all(
      assets.map(async (a) => ({ asset: getAddress(a), vault: getAddress(await factory.getFunction("vaultOf")(a)) })),
    );
  });
};

export const readFactoryVault: Handler<typeof routes.readFactoryVault> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const vault: string = await read(t, "factory", () => contract(t, "factory").getFunction("vaultOf")(params.asset));
  if (vault === ZeroAddress) throw new ApiError("NOT_FOUND", `asset ${getAddress(params.asset)} is not registered`);
  return { asset: getAddress(params.asset), vault: getAddress(vault) };
};
