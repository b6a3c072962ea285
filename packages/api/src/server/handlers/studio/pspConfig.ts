import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { requireRoleOn, roleHash } from "../../../core/chain/contracts.js";
import { campaignTx, target, tx } from "../../../core/program/target.js";

type ListRoute = typeof routes.pspUpdateSettlementWhitelist;

const campaignListTx =
  (fn: "updateSettlementWhitelist" | "updateTransferWhitelist" | "setCampaignAdmin"): Handler<ListRoute> =>
  ({ body }, ctx) =>
    campaignTx(ctx, body, fn, (id) => [id, body.account, body.allowed]);

export const pspUpdateSettlementWhitelist = campaignListTx("updateSettlementWhitelist");
export const pspUpdateTransferWhitelist = campaignListTx("updateTransferWhitelist");
export const pspSetCampaignAdmin = campaignListTx("setCampaignAdmin");

export const pspConfigureMinter: Handler<typeof routes.pspConfigureMinter> = ({ body }, ctx) =>
  campaignTx(ctx, body, "setMinter", (id) => [id, body.minter, BigInt(body.limit), body.active]);

const pspRoleTx =
  (fn: "grantRole" | "revokeRole"): Handler<typeof routes.pspGrantRole> =>
  async ({ body }, ctx) => {
    requireRoleOn("pspVault", body.roleType);
    return tx(await target(ctx, body.program), {
      contract: "pspVault",
      fn,
      args: [roleHash(body.roleType), body.account],
      from: body.from,
    });
  };

export const pspGrantRole = pspRoleTx("grantRole");
export const pspRevokeRole = pspRoleTx("revokeRole");
