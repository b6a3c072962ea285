import { z } from "zod";
import { Address, UintText } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { LedgerAt, LedgerQuery, MinterView } from "../common.js";

export const LedgerCampaignView = z
  .object({
    campaignId: z.string(),
    budget: UintText.meta({ description: "SP funded in total (creation and fundCampaign)" }),
    available: UintText.meta({ description: "SP left to issue" }),
    outstanding: UintText.meta({ description: "pSP issued and not yet settled or expired" }),
    status: z.enum(["Active", "Paused", "Closed"]),
    creator: Address,
    metadata: z.string().meta({ description: "As written on chain; invalid UTF-8 and NUL read as U+FFFD" }),
    admins: z.array(Address),
    settlementWhitelist: z.array(Address),
    transferWhitelist: z.array(Address),
    minters: z.array(MinterView),
  })
  .meta({ id: "LedgerCampaign" });

export const ledgerCampaigns = defineRoute({
  method: "get",
  path: "/api/v1/ledger/campaigns",
  summary: "Every campaign of a program with its budget, admins, allowlists and minters, from the ledger",
  tag: "ledger",
  auth: "key",
  query: LedgerQuery,
  response: success(z.object({ ...LedgerAt, campaigns: z.array(LedgerCampaignView) })),
});
