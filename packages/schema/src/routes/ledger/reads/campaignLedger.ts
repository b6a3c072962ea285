import { z } from "zod";
import { CampaignId } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { CampaignIdResolution } from "../../../tx.js";
import { EventCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";
import { LedgerEventView } from "./holderHistory.js";

export const ledgerCampaignLedger = defineRoute({
  method: "get",
  path: "/api/v1/ledger/campaigns/:campaignId/ledger",
  summary:
    "Every event of a campaign (funding, status, mints, settlements, expiries, transfers, minters, allowlists), newest first",
  tag: "ledger",
  auth: "key",
  params: z.object({ campaignId: CampaignId }),
  query: pageQuery(EventCursor),
  response: success(
    z.object({
      ...LedgerAt,
      campaignId: CampaignIdResolution,
      events: z.array(LedgerEventView),
      nextCursor: NextCursor,
    }),
  ),
});
