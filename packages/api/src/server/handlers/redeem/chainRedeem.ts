import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { chainTarget, tx } from "../../../core/program/target.js";
import { redeemRequestView, requestRedeemTx } from "../../../core/program/redeem.js";

export const chainRedeemCreate: Handler<typeof routes.chainRedeemCreate> = async ({ params, body }, ctx) =>
  requestRedeemTx(await chainTarget(ctx, params.chainId, params.factoryAddr), body.key, {
    asset: params.assetAddr,
    ...body.input,
  });

/** Cancel and finalize name the asset in the path: it must be the request's asset. */
async function onRequest(
  ctx: Ctx,
  params: { chainId: string; factoryAddr: string; assetAddr: string },
  requestId: string,
) {
  const t = await chainTarget(ctx, params.chainId, params.factoryAddr);
  const request = await redeemRequestView(t, requestId);
  if (request.asset !== getAddress(params.assetAddr)) {
    throw new ApiError(
      "INVALID_INPUT",
      `request ${requestId} is for asset ${request.asset}, not ${getAddress(params.assetAddr)}`,
    );
  }
  return t;
}

/** The requester's (or an executor's) call `fn(requestId)` on a request of the path's asset. */
const onRequestCall =
  (fn: "cancelRedeem" | "finalizeRedeem"): Handler<typeof routes.chainRedeemCancel> =>
  async ({ params, body }, ctx) =>
    tx(await onRequest(ctx, params, body.input.requestId), {
      contract: "factory",
      fn,
      args: [BigInt(body.input.requestId)],
      from: body.key,
    });

export const chainRedeemCancel: Handler<typeof routes.chainRedeemCancel> = onRequestCall("cancelRedeem");
export const chainRedeemFinalize: Handler<typeof routes.chainRedeemFinalize> = onRequestCall("finalizeRedeem");
