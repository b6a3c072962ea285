import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { chainTarget, contract, read, target, type Target } from "../common.js";

const STATUS = ["None", "Pending", "Finalized", "Cancelled", "Rejected"] as const;

/** A redemption request as JSON; unknown ids are 404 (the contract's RedeemRequestNotFound). */
export async function redeemRequestView(t: Target, requestId: string) {
  const factory = contract(t, "factory");
  const [r, delay] = await read(t, "factory", () =>
    Promise.all([factory.getRedeemRequest(BigInt(requestId)), factory.redeemDelay()]),
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
    readyAt: Number(r.createdAt) + Number(delay),
    status: STATUS[Number(r.status)] as Exclude<(typeof STATUS)[number], "None">,
  };
}

export const chainRedeemStatus: Handler<typeof routes.chainRedeemStatus> = async ({ params }, ctx) =>
  redeemRequestView(await chainTarget(ctx, params.chainId, params.factoryAddr), params.requestId);

export const readRedeemRequest: Handler<typeof routes.readRedeemRequest> = async ({ params, query }, ctx) =>
  redeemRequestView(await target(ctx, query.program), params.requestId);
