import { getAddress } from "ethers";
import type { UnsignedTx } from "@points/schema";
import type { Call } from "../chain/build.js";
import { ApiError } from "../errors.js";
import { erc20, programCall, read, type Target } from "./target.js";

/** An ERC-20 allowance a build may need: `owner` lets `spender` pull `amount` of `token`. */
export interface Allowance {
  token: string;
  tokenContract: "asset" | "points";
  owner: string;
  spender: string;
  spenderName: string;
  amount: bigint;
}

/**
 * `call` on the program of `t`: only when its simulation fails for want of an ERC-20 allowance
 * is it answered with 422 and the approval to sign first (see {@link requireAllowance}). Every other refusal (role,
 * allowlist, asset, basket mode) is reported as is, so nobody is asked to approve for a
 * transaction that would fail anyway.
 */
export const afterAllowance = (
  t: Target,
  call: Omit<Call, "program">,
  need: () => Promise<Allowance | null>,
): Call => ({
  ...programCall(t, call),
  onRevert: async (revert, build) => {
    if (revert.revert?.name !== "ERC20InsufficientAllowance") return;
    const allowance = await need();
    if (allowance) await requireAllowance(t, allowance, build);
  },
});

/**
 * A build that only succeeds after an ERC-20 approval: answer 422 WOULD_REVERT saying so,
 * with the approval as a ready unsigned transaction in `details.prerequisite`.
 */
export async function requireAllowance(
  t: Target,
  opts: Allowance,
  build: (call: Call) => Promise<UnsignedTx>,
): Promise<void> {
  const allowance: bigint = await read(t, opts.tokenContract === "points" ? "points" : "factory", () =>
    erc20(t, opts.token).getFunction("allowance")(opts.owner, opts.spender),
  );
  if (allowance >= opts.amount) return;
  const approval = await build(
    programCall(t, {
      contract: opts.tokenContract,
      address: opts.token,
      fn: "approve",
      args: [opts.spender, opts.amount],
      from: opts.owner,
    }),
  );
  throw new ApiError(
    "WOULD_REVERT",
    `${opts.spenderName} needs an allowance of ${opts.amount} from ${getAddress(opts.owner)} on ${getAddress(opts.token)} (it has ${allowance}): sign details.prerequisite first, then build again`,
    {
      name: "ERC20InsufficientAllowance",
      contract: opts.tokenContract,
      args: { spender: getAddress(opts.spender), allowance: allowance.toString(), needed: opts.amount.toString() },
      prerequisite: approval,
    },
  );
}
