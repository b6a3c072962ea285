import { z } from "zod";
import { Uint } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { RedeemRequestView } from "../redeem/status.js";
import { ProgramQuery } from "./common.js";

export const readRedeemRequest = defineRoute({
  method: "get",
  path: "/api/v1/evm/factory/redeem/:requestId",
  summary: "Status of a redemption request on the default (or named) program",
  tag: "redeem",
  auth: "open",
  params: z.object({ requestId: Uint }),
  query: ProgramQuery,
  response: success(RedeemRequestView),
});
