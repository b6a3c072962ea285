import { z } from "zod";
import { Address, UintText } from "../../primitives.js";
import { success } from "../../envelope.js";
import { programRead } from "./common.js";

export const readBalance = programRead({
  path: "/api/v1/evm/balance/:address",
  summary: "SP balance of an address",
  params: z.object({ address: Address }),
  response: success(
    z.object({ address: Address, balance: UintText, decimals: z.literal(18), transferWhitelisted: z.boolean() }),
  ),
});
