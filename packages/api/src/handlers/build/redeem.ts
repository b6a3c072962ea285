import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { contract, read, target, txAfterAllowance, type Target } from "../common.js";

/**
 * Factory.requestRedeem(asset, to, amount, expectedBasketMode). The mode defaults to the
 * chain's current one and is echoed; the Factory escrows SP, so it needs an SP allowance.
 */
export async function requestRedeemTx(
  t: Target,
  key: string,
  input: { asset: string; amount: string; to?: string; expectedBasketMode?: boolean },
) {
  const expected =
    input.expectedBasketMode ?? ((await read(t, "factory", () => contract(t, "factory").isBasketMode())) as boolean);
  const call = {
    contract: "factory" as const,
    fn: "requestRedeem",
    args: [input.asset, input.to ?? key, BigInt(input.amount), expected],
    from: key,
    moves: "points" as const,
    extra: { expectedBasketMode: expected },
  };
  return txAfterAllowance(t, call, async () => ({
    token: t.program.points,
    tokenContract: "points",
    owner: key,
    spender: t.program.factory,
    spenderName: "Factory",
    amount: BigInt(input.amount),
  }));
}

export const buildRedeem: Handler<typeof routes.buildRedeem> = async ({ body }, ctx) =>
  requestRedeemTx(await target(ctx, body.program), body.key, body.input);
