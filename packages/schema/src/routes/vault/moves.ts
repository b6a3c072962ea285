import { Address, CampaignId, Metadata, PositiveAmount } from "../../primitives.js";
import { studioBody } from "../../tx.js";
import { post } from "./common.js";

export const pspMint = post(
  "mint",
  "mint(campaignId, to, amount, metadata): issue pSP (MANAGER_ROLE, ISSUING_ADMIN_ROLE, a campaign admin or an active delegated minter)",
  studioBody({ campaignId: CampaignId, to: Address, amount: PositiveAmount, metadata: Metadata }),
);
export const pspSettle = post(
  "settle",
  "settle(holder, receiver, amount, campaignId, metadata)",
  studioBody({
    holder: Address,
    receiver: Address,
    amount: PositiveAmount,
    campaignId: CampaignId,
    metadata: Metadata,
  }),
);
export const pspExpire = post(
  "expire",
  "expire(holder, amount, campaignId, metadata): claw back into the budget",
  studioBody({ holder: Address, amount: PositiveAmount, campaignId: CampaignId, metadata: Metadata }),
);
export const pspTransfer = post(
  "transfer",
  "transfer(campaignId, holder, to, amount): admin transfer of pSP",
  studioBody({ campaignId: CampaignId, holder: Address, to: Address, amount: PositiveAmount }),
);
