import { getAddress } from "ethers";
import { CONTRACT_NAMES, type ContractName } from "@points/schema";
import { CONTRACT_ROLES, roleHash } from "../chain/contracts.js";
import { chainUnavailable } from "../chain/client.js";
import { readSafe } from "../chain/safe.js";
import { ApiError } from "../errors.js";
import { contract, read, type Target } from "./target.js";

export interface HeldRole {
  contract: ContractName;
  contractAddress: string;
  role: string;
}

/**
 * Every role `account` holds on the program's contracts, asked of the chain (every role each
 * contract defines, in the contracts' listing order): the chain is the authority a handover acts on.
 */
export async function heldRoles(t: Target, account: string): Promise<HeldRole[]> {
  const asks = CONTRACT_NAMES.filter((c) => t.program[c]).flatMap((c) =>
    CONTRACT_ROLES[c].map((role) => ({ contract: c, contractAddress: getAddress(t.program[c]!), role })),
  );
  const has = await Promise.all(
    asks.map((a) =>
      read(
        t,
        a.contract,
        () => contract(t, a.contract).getFunction("hasRole")(roleHash(a.role), account) as Promise<boolean>,
      ),
    ),
  );
  return asks.filter((_, i) => has[i]);
}

/** Whether `address` is a Safe on the target's chain (an unsupported Safe version is refused). */
export async function isSafe(t: Target, address: string): Promise<boolean> {
  let code: string;
  try {
    code = await t.chain.provider.getCode(address);
  } catch (e) {
    chainUnavailable(e, t.chain.config);
  }
  try {
    return (await readSafe(t.chain, address, code)) !== undefined;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    chainUnavailable(e, t.chain.config);
  }
}
