import { getAddress } from "ethers";
import type { ContractName, routes } from "@points/schema";
import type { BuildHandler, Handler } from "../../../core/context.js";
import { contract, read, target, programCall } from "../../../core/program/target.js";

type AccountRoute = typeof routes.whitelistMintAdd;

/** One allowlist operation: which contract and function the SDK call maps to. */
export const listTx =
  (contractName: ContractName, fn: string): BuildHandler<AccountRoute> =>
  async ({ body }, ctx) =>
    programCall(await target(ctx, body.program), { contract: contractName, fn, args: [body.account], from: body.from });

export const whitelistMintAdd = listTx("factory", "addToMintWhitelist");
export const whitelistMintRemove = listTx("factory", "removeFromMintWhitelist");
export const whitelistRedeemAdd = listTx("factory", "addToRedeemWhitelist");
export const whitelistRedeemRemove = listTx("factory", "removeFromRedeemWhitelist");

export const whitelistStatus: Handler<typeof routes.whitelistStatus> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const factory = contract(t, "factory");
  const [mint, redeem, transfer] = await read(t, "factory", () =>
    Promise.all([
      factory.getFunction("isMintWhitelisted")(params.address),
      factory.getFunction("isRedeemWhitelisted")(params.address),
      contract(t, "points").getFunction("isTransferWhitelisted")(params.address),
    ]),
  );
  return { address: getAddress(params.address), mint, redeem, transfer };
};
