import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { requireRoleOn, roleHash } from "../../chain/contracts.js";
import { target, tx } from "../../program/target.js";
import { campaignId } from "../../program/campaign.js";

type ListRoute = typeof routes.pspUpdateSettlementWhitelist;

const campaignListTx =
  (fn: "updateSettlementWhitelist" | "updateTransferWhitelist" | "setCampaignAdmin"): Handler<ListRoute> =>
  async ({ body }, ctx) => {
    const id = campaignId(body.campaignId);
    return tx(await target(ctx, body.program), {
      contract: "pspVault",
      fn,
      args: [id.value, body.account, body.allowed],
      from: body.from,
      extra: { campaignId: id },
    });
  };

export const pspUpdateSettlementWhitelist = campaignListTx("updateSettlementWhitelist");
export const pspUpdateTransferWhitelist = campaignListTx("updateTransferWhitelist");
export const pspSetCampaignAdmin = campaignListTx("setCampaignAdmin");

export const pspConfigureMinter: Handler<typeof routes.pspConfigureMinter> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "setMinter",
    args: [id.value, body.minter, BigInt(body.limit), body.active],
    from: body.from,
    extra: { campaignId: id },
  });
};

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
