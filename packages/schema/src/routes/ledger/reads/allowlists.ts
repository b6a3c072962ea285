import { z } from "zod";
import { Address } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { LedgerAt, LedgerQuery } from "../common.js";

export const ledgerAllowlists = defineRoute({
  method: "get",
  path: "/api/v1/ledger/allowlists",
  summary: "Members of the Factory's mint and redeem allowlists and of the Points transfer allowlist, from the ledger",
  tag: "ledger",
  auth: "key",
  query: LedgerQuery,
  response: success(
    z.object({ ...LedgerAt, mint: z.array(Address), redeem: z.array(Address), transfer: z.array(Address) }),
  ),
});
