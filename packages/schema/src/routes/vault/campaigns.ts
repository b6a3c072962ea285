import { z } from "zod";
import { Address, Amount, CampaignId, Metadata, PositiveAmount } from "../../primitives.js";
import { studioBody } from "../../tx.js";
import { post } from "./common.js";

const Accounts = z.array(Address).max(256, "must hold at most 256 addresses").default([]);

export const pspCreateCampaign = post(
  "create-campaign",
  "createCampaign(campaignId, spBudget, settlementDestinations, transferWhitelist, metadata)",
  studioBody({
    campaignId: CampaignId,
    spBudget: Amount,
    settlementDestinations: Accounts,
    transferWhitelist: Accounts,
    metadata: Metadata,
  }),
);
export const pspFundCampaign = post(
  "fund-campaign",
  "fundCampaign(campaignId, amount): the campaign's funder (its creator) or MANAGER_ROLE; only MANAGER_ROLE draws on unallocated SP",
  studioBody({ campaignId: CampaignId, amount: PositiveAmount }),
);
const statusBody = studioBody({ campaignId: CampaignId });
export const pspPauseCampaign = post("pause-campaign", "pauseCampaign(campaignId): Active -> Paused", statusBody);
export const pspResumeCampaign = post("resume-campaign", "resumeCampaign(campaignId): Paused -> Active", statusBody);
export const pspCloseCampaign = post(
  "close-campaign",
  "closeCampaign(campaignId, to): Closed; program money back first (treasury or unallocated), the rest to the funder",
  studioBody({
    campaignId: CampaignId,
    to: Address.optional().meta({
      description: "Must be the campaign's closeRecipient (its funder); left out, the server reads it from the chain",
    }),
  }),
);
export const pspRevokeCreator = post(
  "revoke-creator",
  "revokeCreator(campaignId): MANAGER_ROLE ends the creator's rights on the campaign (its refund as funder stays)",
  statusBody,
);
export const pspSetTreasury = post(
  "set-treasury",
  "setTreasury(treasury): MANAGER_ROLE; where program money goes when a campaign closes (zero address: it stays unallocated)",
  studioBody({ treasury: Address }),
);
