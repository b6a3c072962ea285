import { getAddress, isHexString, keccak256, toUtf8Bytes } from "ethers";
import type { ContractName, UnsignedTx } from "@points/schema";
import type { Ctx } from "../context.js";
import type { Program } from "../registry/programs.js";
import type { ChainClient } from "../chain/client.js";
import { chainUnavailable } from "../chain/client.js";
import { contractAddress } from "../chain/contracts.js";
import { buildTx, type Call } from "../chain/build.js";
import { RevertError, revertToApiError } from "../chain/revert.js";
import { ApiError } from "../errors.js";

/** The program a request acts on and its chain. */
export interface Target {
  program: Program;
  chain: ChainClient;
}

export async function target(ctx: Ctx, ref: string | undefined): Promise<Target> {
  const program = await ctx.programs.resolve(ref);
  return { program, chain: ctx.chains.get(program.chainId) };
}

/** The program whose Factory is `factory` on `chainId` (chain-scoped routes). */
export async function chainTarget(ctx: Ctx, chainId: string, factory: string): Promise<Target> {
  const chain = ctx.chains.get(chainId);
  const program = (await ctx.programs.listByChain(chainId)).find((p) => p.factory === getAddress(factory));
  if (!program) throw new ApiError("NOT_FOUND", `no program with factory ${getAddress(factory)} on chain ${chainId}`);
  return { program, chain };
}

export const contract = (t: Target, name: ContractName) => t.chain.contract(name, contractAddress(t.program, name));
export const erc20 = (t: Target, address: string) => t.chain.contract("asset", address);

export const tx = (t: Target, call: Omit<Call, "program">): Promise<UnsignedTx> =>
  buildTx(t.chain, { ...call, program: t.program });

/** bytes32 hex as is, or a text label hashed with keccak256; the response says which. */
export function campaignId(input: string): NonNullable<UnsignedTx["campaignId"]> {
  if (isHexString(input, 32)) return { value: input.toLowerCase(), source: "hex" };
  return { value: keccak256(toUtf8Bytes(input)), source: "label", label: input };
}

/**
 * Runs chain reads; a revert with a known "not found" error becomes 404, other reverts 422,
 * a dead node 502.
 */
export async function read<T>(t: Target, called: ContractName, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const reverted = revertToApiError(e, "read", called);
    if (reverted) throw reverted;
    chainUnavailable(e, t.chain.config);
  }
}

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
 * Builds `call`; only when its simulation fails for want of an ERC-20 allowance does it
 * answer 422 with the approval to sign first (see {@link requireAllowance}). Every other
 * refusal (role, allowlist, asset, basket mode) is reported as is, so nobody is asked to
 * approve for a transaction that would fail anyway.
 */
export async function txAfterAllowance(t: Target, call: Omit<Call, "program">, need: () => Promise<Allowance | null>) {
  try {
    return await tx(t, call);
  } catch (e) {
    if (e instanceof RevertError && e.revert?.name === "ERC20InsufficientAllowance") {
      const allowance = await need();
      if (allowance) await requireAllowance(t, allowance);
    }
    throw e;
  }
}

/**
 * A build that only succeeds after an ERC-20 approval: answer 422 WOULD_REVERT saying so,
 * with the approval as a ready unsigned transaction in `details.prerequisite`.
 */
export async function requireAllowance(t: Target, opts: Allowance): Promise<void> {
  const allowance: bigint = await read(t, opts.tokenContract === "points" ? "points" : "factory", () =>
    erc20(t, opts.token).allowance(opts.owner, opts.spender),
  );
  if (allowance >= opts.amount) return;
  const approval = await tx(t, {
    contract: opts.tokenContract,
    address: opts.token,
    fn: "approve",
    args: [opts.spender, opts.amount],
    from: opts.owner,
  });
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
