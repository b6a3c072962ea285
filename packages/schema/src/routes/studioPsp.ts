import { z } from "zod";
import {
  Address,
  Amount,
  CampaignId,
  CONTRACT_ROLES,
  Metadata,
  PositiveAmount,
  ProgramRef,
  roleNameSchema,
  UintText,
} from "../primitives.js";
import { defineRoute, routeFamily } from "../route.js";
import { CampaignIdResolution, UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";
import { studioBody } from "./studioWhitelist.js";

const tx = success(UnsignedTx);
const base = "/studio/sdk/v1/tx/psp";
const post = <B extends z.ZodType>(path: string, summary: string, body: B) =>
  defineRoute({ method: "post", path: `${base}/${path}`, summary, tag: "psp", auth: "key", body, response: tx });
const PspRole = roleNameSchema(CONTRACT_ROLES.pspVault);
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
const listUpdate = studioBody({ campaignId: CampaignId, account: Address, allowed: z.boolean() });
export const pspUpdateSettlementWhitelist = post(
  "update-settlement-whitelist",
  "updateSettlementWhitelist(campaignId, account, allowed)",
  listUpdate,
);
export const pspUpdateTransferWhitelist = post(
  "update-transfer-whitelist",
  "updateTransferWhitelist(campaignId, account, allowed)",
  listUpdate,
);
export const pspConfigureMinter = post(
  "configure-minter",
  "setMinter(campaignId, minter, limit, active); (0, false) revokes",
  studioBody({ campaignId: CampaignId, minter: Address, limit: Amount, active: z.boolean() }),
);
export const pspSetCampaignAdmin = post(
  "set-campaign-admin",
  "setCampaignAdmin(campaignId, account, allowed)",
  listUpdate,
);
const roleBody = studioBody({ roleType: PspRole, account: Address });
export const pspGrantRole = post(
  "grant-role",
  "grantRole(role, account) on the PSPVault (roleType e.g. ISSUING_ADMIN)",
  roleBody,
);
export const pspRevokeRole = post("revoke-role", "revokeRole(role, account) on the PSPVault", roleBody);
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
