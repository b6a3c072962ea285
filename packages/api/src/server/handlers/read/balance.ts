import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { contract, read, target } from "../../../core/program/target.js";

/** SP balance and transfer-allowlist status of an address. */
export const readBalance: Handler<typeof routes.readBalance> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const points = contract(t, "points");
  const [balance, listed] = await read(t, "points", () =>
    Promise.all([
      points.getFunction("balanceOf")(params.address),
      points.getFunction("isTransferWhitelisted")(params.address),
    ]),
  );
  return {
    address: getAddress(params.address),
    balance: balance.toString(),
    decimals: 18,
    transferWhitelisted: listed,
  };
};
