import { getAddress } from "ethers";
import { afterAllowance } from "./allowance.js";
import { contract, read, type Target } from "./target.js";

/**
 * Factory.requestRedeem(asset, to, amount, expectedBasketMode). The mode defaults to the
 * chain's current one and is echoed; the Factory escrows SP, so it needs an SP allowance.
 */
export async function requestRedeemCall(
  t: Target,
  key: string,
  input: { asset: string; amount: string; to?: string; expectedBasketMode?: boolean },
) {
  const expected =
    input.expectedBasketMode ??
    ((await read(t, "factory", () => contract(t, "factory").getFunction("isBasketMode")())) as boolean);
  const call = {
    contract: "factory" as const,
    fn: "requestRedeem",
    args: [input.asset, input.to ?? key, BigInt(input.amount), expected],
    from: key,
    moves: "points" as const,
    extra: { expectedBasketMode: expected },
  };
  return afterAllowance(t, call, async () => ({
    token: t.program.points,
    tokenContract: "points",
    owner: key,
    spender: t.program.factory,
    spenderName: "Factory",
    amount: BigInt(input.amount),
  }));
}

const STATUS = ["None", "Pending", "Finalized", "Cancelled", "Rejected"] as const;

/** A redemption request as JSON; unknown ids are 404 (the contract's RedeemRequestNotFound). */
export async function redeemRequestView(t: Target, requestId: string) {
  const factory = contract(t, "factory");
  // readyAt is the request's own: the delay in force when it was made (docs/rules.md#redemptions).
  const [r, readyAt] = await read(t, "factory", () =>
    Promise.all([
      factory.getFunction("getRedeemRequest")(BigInt(requestId)),
      factory.getFunction("redeemReadyAt")(BigInt(requestId)),
    ]),
  );
  return {
    requestId,
    requester: getAddress(r.requester),
    asset: getAddress(r.asset),
    to: getAddress(r.to),
    amount: r.amount.toString(),
    expectedBasketMode: r.expectedBasketMode as boolean,
    redeemFeeBps: Number(r.redeemFeeBps),
    createdAt: Number(r.createdAt),
    readyAt: Number(readyAt),
    status: STATUS[Number(r.status)] as Exclude<(typeof STATUS)[number], "None">,
  };
}
