import { ZeroAddress } from "ethers";
import { checksummed } from "../../../core/chain/address.js";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { contract, erc20, read, target, type Target } from "../../../core/program/target.js";
import { chainText } from "../../../core/chain/text.js";

/**
 * Every asset's vault, decimals, symbol, collateral held and peg status at `blockTag`. A
 * registered asset's vault and decimals can never change (the Factory has no way to re-register
 * or remove an asset), so they are read once per process; the rest is read live, in the
 * caller's batch.
 */
async function assetViews(t: Target, assets: string[], oracle: string | null, blockTag: number) {
  const factory = contract(t, "factory");
  const key = `${t.program.factory}:${t.program.chainId}`;
  return Promise.all(
    assets.map(async (asset) => {
      const token = erc20(t, asset);
      const [vault, decimals] = await Promise.all([
        t.chain.immutable<string>(
          `vaultOf:${key}:${asset}`,
          () => factory.getFunction("vaultOf")(asset),
          (v) => v !== ZeroAddress,
        ),
        t.chain.immutable<bigint>(`decimals:${asset}`, () => token.getFunction("decimals")()),
      ]);
      // Known values resolve within the tick, so these join the caller's batch.
      const [symbol, collateral, pegged] = await Promise.all([
        token.getFunction("symbol")({ blockTag }) as Promise<string>,
        token.getFunction("balanceOf")(vault, { blockTag }) as Promise<bigint>,
        oracle ? (contract(t, "oracle").getFunction("isPegged")(asset, { blockTag }) as Promise<boolean>) : null,
      ]);
      return {
        asset: checksummed(asset),
        vault: checksummed(vault),
        decimals: Number(decimals),
        symbol: chainText(symbol),
        collateral: collateral.toString(),
        pegged,
      };
    }),
  );
}

/**
 * The Factory's state at one block. Reads are issued together so the node sees them as one
 * JSON-RPC batch per step: block number and asset list, then everything else (plus, the first
 * time an asset is seen, one step for its vault).
 */
export const readFactoryState: Handler<typeof routes.readFactoryState> = async ({ query }, ctx) => {
  const t = await target(ctx, query.program);
  const factory = contract(t, "factory");
  const points = contract(t, "points");
  return read(t, "factory", async () => {
    const [blockNumber, assets, oracleAddr] = await Promise.all([
      t.chain.provider.getBlockNumber(),
      factory.getFunction("assets")() as Promise<string[]>,
      factory.getFunction("oracle")() as Promise<string>,
    ]);
    const blockTag = blockNumber;
    const oracle = oracleAddr === ZeroAddress ? null : checksummed(oracleAddr);
    const [
      paused,
      basketMode,
      forced,
      mintFee,
      redeemFee,
      feeReceiver,
      delay,
      count,
      supply,
      pointsPaused,
      restricted,
      views,
    ] = await Promise.all([
      factory.getFunction("paused")({ blockTag }),
      factory.getFunction("isBasketMode")({ blockTag }),
      factory.getFunction("basketModeForced")({ blockTag }),
      factory.getFunction("mintFeeBps")({ blockTag }),
      factory.getFunction("redeemFeeBps")({ blockTag }),
      factory.getFunction("feeReceiver")({ blockTag }),
      factory.getFunction("redeemDelay")({ blockTag }),
      factory.getFunction("redeemRequestCount")({ blockTag }),
      points.getFunction("totalSupply")({ blockTag }),
      points.getFunction("paused")({ blockTag }),
      points.getFunction("transferRestricted")({ blockTag }),
      assetViews(t, assets, oracle, blockTag),
    ]);
    return {
      factory: t.program.factory,
      points: t.program.points,
      oracle,
      paused,
      pointsPaused,
      basketMode,
      basketModeForced: forced,
      mintFeeBps: Number(mintFee),
      redeemFeeBps: Number(redeemFee),
      feeReceiver: checksummed(feeReceiver),
      redeemDelay: Number(delay),
      redeemRequestCount: count.toString(),
      totalSupply: supply.toString(),
      transferRestricted: restricted,
      assets: views,
      blockNumber,
    };
  });
};
