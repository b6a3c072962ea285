import { z } from "zod";
import { Address, PositiveAmount } from "../../primitives.js";
import { buildBody, buildRoute } from "./common.js";

export const buildRedeem = buildRoute({
  path: "/api/v1/build/redeem",
  summary: "Build Factory.requestRedeem (to defaults to key; expectedBasketMode to the current mode)",
  body: buildBody({
    asset: Address,
    amount: PositiveAmount,
    to: Address.optional(),
    expectedBasketMode: z.boolean().optional(),
  }),
});
