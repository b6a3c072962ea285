import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target } from "../../../core/program/target.js";
import { afterAllowance } from "../../../core/program/allowance.js";

/** Factory.mint(asset, amount, receiver): the key must first allow the Factory to pull the asset. */
export const buildMint: BuildHandler<typeof routes.buildMint> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const { asset, amount, receiver = body.key } = body.input;
  const call = {
    contract: "factory" as const,
    fn: "mint",
    args: [asset, BigInt(amount), receiver],
    from: body.key,
    moves: "asset" as const,
  };
  return afterAllowance(t, call, async () => ({
    token: asset,
    tokenContract: "asset",
    owner: body.key,
    spender: t.program.factory,
    spenderName: "Factory",
    amount: BigInt(amount),
  }));
};
