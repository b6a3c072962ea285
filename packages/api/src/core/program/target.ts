import { getAddress } from "ethers";
import type { ContractName } from "@points/schema";
import type { Ctx } from "../context.js";
import type { Program } from "../registry/programs.js";
import type { ChainClient } from "../chain/client.js";
import { chainUnavailable } from "../chain/client.js";
import { contractAddress } from "../chain/contracts.js";
import { buildTx, type BuildOptions, type Call } from "../chain/build.js";
import { revertToApiError } from "../chain/revert.js";
import { ApiError } from "../errors.js";
import { campaignId } from "./campaign.js";

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

/** `call` on the program of `t` (a build route's answer: the service builds it, see {@link build}). */
export const programCall = (t: Target, call: Omit<Call, "program">): Call => ({ ...call, program: t.program });

/** Builds a planned call on its program's chain (docs/architecture.md#building-a-transaction). */
export const build = (ctx: Ctx, call: Call, opts?: BuildOptions) =>
  buildTx(ctx.chains.get(call.program.chainId), call, opts);

/** The fields every PSPVault campaign request carries. */
export interface CampaignRequest {
  program?: string;
  campaignId: string;
  from: string;
}

/**
 * A PSPVault call about one campaign: `args` receives the campaign's bytes32 id, and the
 * response says how that id was derived from the request's hex or label.
 */
export async function campaignCall(
  ctx: Ctx,
  body: CampaignRequest,
  fn: string,
  args: (id: string) => unknown[],
): Promise<Call> {
  const id = campaignId(body.campaignId);
  const t = await target(ctx, body.program);
  return {
    ...programCall(t, { contract: "pspVault", fn, args: args(id.value), from: body.from, extra: { campaignId: id } }),
    check: campaignCheck(t, id.value),
  };
}

/**
 * The check that campaign `id` exists, for a call about it: an unknown campaign is 404
 * NOT_FOUND (PSPVault.CampaignNotFound) on every route, whoever asks and whatever the contract
 * would check first (docs/errors.md#unknown-campaign).
 */
export const campaignCheck = (t: Target, id: string) => () => campaignExists(t, id);

/** Runs the read `work` about campaign `id` alongside the check that it exists ({@link campaignCheck}). */
export async function withCampaign<T>(t: Target, id: string, work: () => Promise<T>): Promise<T> {
  const [exists, result] = await Promise.allSettled([campaignExists(t, id), work()]);
  if (exists.status === "rejected") throw exists.reason;
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

/**
 * Resolves when campaign `id` exists, else throws 404. A campaign is never deleted (closing keeps
 * it), so a campaign once found is remembered and later builds about it cost no extra read.
 */
function campaignExists(t: Target, id: string): Promise<true> {
  return t.chain.immutable(`campaign:${t.program.pspVault}:${id}`, () =>
    read(t, "pspVault", () => contract(t, "pspVault").getFunction("getCampaign")(id)).then(() => true as const),
  );
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
