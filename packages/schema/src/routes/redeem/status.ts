import { z } from "zod";
import { Address, Uint, UintText } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { ChainFactoryParams } from "./chainRedeem.js";

export const RedeemRequestView = z.object({
  requestId: UintText,
  requester: Address,
  asset: Address,
  to: Address,
  amount: UintText,
  expectedBasketMode: z.boolean(),
  redeemFeeBps: z.number().int().meta({ description: "Redeem fee in force when the request was made" }),
  createdAt: z.number().int(),
  readyAt: z.number().int().meta({ description: "When the requester may finalize it themselves" }),
  status: z.enum(["Pending", "Finalized", "Cancelled", "Rejected"]),
});

export const chainRedeemStatus = defineRoute({
  method: "get",
  path: "/api/v1/evm/chain/:chainId/factory/:factoryAddr/redeem/:requestId",
  summary: "Status of a redemption request",
  tag: "redeem",
  auth: "open",
  params: ChainFactoryParams.extend({ requestId: Uint }),
  response: success(RedeemRequestView),
});
