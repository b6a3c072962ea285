import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { contractAddress, roleHash } from "../../../core/chain/contracts.js";
import { contract, read, target } from "../../../core/program/target.js";

/** A role the contract does not define is simply not held: the chain answers that too. */
export const checkRole: Handler<typeof routes.checkRole> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const has: boolean = await read(t, params.contract, () =>
    contract(t, params.contract).getFunction("hasRole")(roleHash(params.role), params.address),
  );
  return {
    contract: params.contract,
    contractAddress: contractAddress(t.program, params.contract),
    role: params.role,
    address: getAddress(params.address),
    hasRole: has,
  };
};
