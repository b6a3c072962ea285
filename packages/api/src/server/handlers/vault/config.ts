import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { requireRoleOn, roleHash } from "../../../core/chain/contracts.js";
import { campaignCall, target, programCall } from "../../../core/program/target.js";

type ListRoute = typeof routes.pspUpdateSettlementWhitelist;

const campaignListTx =
  (fn: "updateSettlementWhitelist" | "updateTransferWhitelist" | "setCampaignAdmin"): BuildHandler<ListRoute> =>
  ({ body }, ctx) =>
    campaignCall(ctx, body, fn, (id) => [id, body.account, body.allowed]);

export const pspUpdateSettlementWhitelist = campaignListTx("updateSettlementWhitelist");
export const pspUpdateTransferWhitelist = campaignListTx("updateTransferWhitelist");
export const pspSetCampaignAdmin = campaignListTx("setCampaignAdmin");

export const pspConfigureMinter: BuildHandler<typeof routes.pspConfigureMinter> = ({ body }, ctx) =>
  campaignCall(ctx, body, "setMinter", (id) => [id, body.minter, BigInt(body.limit), body.active]);

const pspRoleTx =
  (fn: "grantRole" | "revokeRole"): BuildHandler<typeof routes.pspGrantRole> =>
  async ({ body }, ctx) => {
    requireRoleOn("pspVault", body.roleType);
    return programCall(await target(ctx, body.program), {
      contract: "pspVault",
      fn,
      args: [roleHash(body.roleType), body.account],
      from: body.from,
    });
  };

export const pspGrantRole = pspRoleTx("grantRole");
export const pspRevokeRole = pspRoleTx("revokeRole");
