import { z } from "zod";
import { Address, Amount, CampaignId, CONTRACT_ROLES, roleNameSchema } from "../../primitives.js";
import { studioBody } from "../../tx.js";
import { post } from "./common.js";

const PspRole = roleNameSchema(CONTRACT_ROLES.pspVault);

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
