import { z } from "zod";
import { Address, ConfiguredChainIdParam, PositiveAmount, Uint } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { TxNonce, UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";

const chainBody = <T extends z.ZodRawShape>(input: T) =>
  z.strictObject({ input: z.strictObject(input), key: Address, nonce: TxNonce });

export const ChainFactoryParams = z.object({ chainId: ConfiguredChainIdParam, factoryAddr: Address });
export const ChainAssetParams = ChainFactoryParams.extend({ assetAddr: Address });
const base = "/api/v1/build/evm/chain/:chainId/factory/:factoryAddr/asset/:assetAddr/redeem";
const tx = success(UnsignedTx);
const chainRedeem = routeFamily({
  method: "post",
  tag: "redeem",
  auth: "open",
  params: ChainAssetParams,
  response: tx,
});

export const chainRedeemCreate = chainRedeem({
  path: `${base}/create`,
  summary: "Build Factory.requestRedeem on a named chain and factory",
  body: chainBody({ to: Address, amount: PositiveAmount, expectedBasketMode: z.boolean() }),
});

export const chainRedeemCancel = chainRedeem({
  path: `${base}/cancel`,
  summary: "Build Factory.cancelRedeem (the requester signs)",
  body: chainBody({ requestId: Uint }),
});

export const chainRedeemFinalize = chainRedeem({
  path: `${base}/finalize`,
  summary: "Build Factory.finalizeRedeem (an executor, or the requester after the delay)",
  body: chainBody({ requestId: Uint }),
});
