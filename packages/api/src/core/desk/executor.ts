import type { Ctx } from "../context.js";
import { roleHash } from "../chain/contracts.js";
import { contract, type Target } from "../program/target.js";

/** The executor's address on a chain, or undefined when this server holds no key for it. */
export function executorAddress(ctx: Ctx, chainId: string): string | undefined {
  return ctx.signers.addresses(ctx.chains.get(chainId).config.chainId)[0];
}

/** Whether the executor can act on a program's Factory; the desk's status in GET. */
export async function executorStatus(t: Target, executor: string | undefined) {
  if (!executor) return "no_executor" as const;
  const holds = (await contract(t, "factory").getFunction("hasRole")(roleHash("EXECUTOR_ROLE"), executor)) as boolean;
  return holds ? ("ready" as const) : ("executor_missing_role" as const);
}
