import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Ctx, BuildHandler } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { chainTarget, programCall } from "../../../core/program/target.js";
import { redeemRequestView, requestRedeemCall } from "../../../core/program/redeem.js";

export const chainRedeemCreate: BuildHandler<typeof routes.chainRedeemCreate> = async ({ params, body }, ctx) =>
  requestRedeemCall(await chainTarget(ctx, params.chainId, params.factoryAddr), body.key, {
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
  (fn: "cancelRedeem" | "finalizeRedeem"): BuildHandler<typeof routes.chainRedeemCancel> =>
  async ({ params, body }, ctx) =>
    programCall(await onRequest(ctx, params, body.input.requestId), {
      contract: "factory",
      fn,
      args: [BigInt(body.input.requestId)],
      from: body.key,
    });

export const chainRedeemCancel: BuildHandler<typeof routes.chainRedeemCancel> = onRequestCall("cancelRedeem");
export const chainRedeemFinalize: BuildHandler<typeof routes.chainRedeemFinalize> = onRequestCall("finalizeRedeem");
