import { z } from "zod";
import { Address, UintText } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { HolderCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";

export const ledgerSpHolders = defineRoute({
  method: "get",
  path: "/api/v1/ledger/sp-holders",
  summary: "SP holders and their balances, by address, from the ledger",
  tag: "ledger",
  auth: "key",
  query: pageQuery(HolderCursor),
  response: success(
    z.object({
      ...LedgerAt,
      holders: z.array(z.object({ holder: Address, balance: UintText })),
      nextCursor: NextCursor,
    }),
  ),
});
