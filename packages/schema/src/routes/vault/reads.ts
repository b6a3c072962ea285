import { z } from "zod";
import { Address, CampaignId, ProgramRef, UintText } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { CampaignIdResolution } from "../../tx.js";
import { success } from "../../envelope.js";

const readQuery = z.object({ program: ProgramRef });
const pspRead = routeFamily({ method: "get", tag: "psp", auth: "key", query: readQuery });

export const pspMinterConfig = pspRead({
  path: "/studio/sdk/v1/psp/minter-config/:campaignId/:minter",
  summary: "getMinterConfig(campaignId, minter): limit, issued, active",
  params: z.object({ campaignId: CampaignId, minter: Address }),
  response: success(
    z.object({
      campaignId: CampaignIdResolution,
      minter: Address,
      limit: UintText,
      issued: UintText,
      active: z.boolean(),
    }),
  ),
});

export const CampaignView = z.object({
  campaignId: CampaignIdResolution,
  budget: UintText,
  available: UintText,
  outstanding: UintText,
  status: z.enum(["Active", "Paused", "Closed"]),
  creator: Address,
  metadata: z.string().meta({
    description: "As written on chain; invalid UTF-8 and NUL read as U+FFFD (the campaign admin wrote it, not us)",
  }),
  funder: Address.meta({ description: "Who funded the budget (zero: none recorded, a campaign from before funders)" }),
  programFunded: UintText.meta({
    description: "Budget drawn from unallocated SP (program money), returned first on close",
  }),
  closeRecipient: Address.meta({
    description: "Where closeCampaign pays the rest: the funder, or the treasury without one",
  }),
  treasury: Address.meta({
    description: "The PSPVault's treasury: where program money goes on close (zero: stays unallocated)",
  }),
});

export const pspCampaign = pspRead({
  path: "/studio/sdk/v1/psp/campaign/:campaignId",
  summary: "getCampaign(campaignId)",
  params: z.object({ campaignId: CampaignId }),
  response: success(CampaignView),
});

export const pspBalance = pspRead({
  path: "/studio/sdk/v1/psp/balance/:campaignId/:holder",
  summary: "pSP balance of a holder in a campaign",
  params: z.object({ campaignId: CampaignId, holder: Address }),
  response: success(z.object({ campaignId: CampaignIdResolution, holder: Address, balance: UintText })),
});
