import { z } from "zod";
import { Address, CampaignId, UintText } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { CampaignIdResolution } from "../../../tx.js";
import { HolderCursor, LedgerAt, NextCursor, pageQuery } from "../common.js";

export const ledgerCampaignBalances = defineRoute({
  method: "get",
  path: "/api/v1/ledger/campaigns/:campaignId/balances",
  summary: "pSP holders of a campaign and their balances, by address, from the ledger",
  tag: "ledger",
  auth: "key",
  params: z.object({ campaignId: CampaignId }),
  query: pageQuery(HolderCursor),
  errors: ["NOT_FOUND"],
  response: success(
    z.object({
      ...LedgerAt,
      campaignId: CampaignIdResolution,
      holders: z.array(z.object({ holder: Address, balance: UintText })),
      nextCursor: NextCursor,
    }),
  ),
});
