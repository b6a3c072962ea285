import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { EventCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";
import { LedgerEventView } from "./holderHistory.js";

export const ledgerRoleHistory = defineRoute({
  method: "get",
  path: "/api/v1/ledger/roles/history",
  summary: "Every role granted or revoked on the program's contracts (role, account, by whom, when), newest first",
  tag: "ledger",
  auth: "key",
  query: pageQuery(EventCursor),
  response: success(z.object({ ...LedgerAt, events: z.array(LedgerEventView), nextCursor: NextCursor })),
});
