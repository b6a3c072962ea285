import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import { isDevChainId } from "@points/contracts/program";
import type { BuildHandler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { isLoopbackUrl } from "../../../core/config/env.js";
import { contract, read, target, programCall } from "../../../core/program/target.js";

/**
 * The mock collateral's open mint, built for `key`. A dev chain id alone proves nothing (a remote
 * node may report 31337), so every RPC of the chain must be on this machine, as for the dev key.
 */
export const devFaucet: BuildHandler<typeof routes.devFaucet> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const chain = t.chain.config;
  const rpcs = [chain.rpcUrl, ...(chain.rpcUrls ?? [])];
  if (ctx.config.production || !isDevChainId(chain.chainId) || !rpcs.every(isLoopbackUrl)) {
    throw new ApiError(
      "DEV_CHAIN_ONLY",
      `chain ${chain.chainId} is not a dev chain served on this machine: no faucet (mint real collateral elsewhere)`,
    );
  }
  const asset = getAddress(body.input.asset);
  const assets: string[] = await read(t, "factory", () => contract(t, "factory").getFunction("assets")());
  if (!assets.map((a) => getAddress(a)).includes(asset)) {
    throw new ApiError("NOT_FOUND", `asset ${asset} is not a collateral asset of program ${t.program.id}`);
  }
  return programCall(t, {
    contract: "asset",
    address: asset,
    fn: "mint",
    args: [body.input.to ?? body.key, BigInt(body.input.amount)],
    from: body.key,
  });
};
