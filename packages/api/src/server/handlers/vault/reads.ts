import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { contract, read, target, withCampaign } from "../../../core/program/target.js";
import { campaignId } from "../../../core/program/campaign.js";
import { chainText } from "../../../core/chain/text.js";

const STATUS = ["None", "Active", "Paused", "Closed"] as const;

export const pspMinterConfig: Handler<typeof routes.pspMinterConfig> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const id = campaignId(params.campaignId);
  const [limit, issued, active] = await withCampaign(t, id.value, () =>
    read(t, "pspVault", () => contract(t, "pspVault").getFunction("getMinterConfig")(id.value, params.minter)),
  );
  return {
    campaignId: id,
    minter: getAddress(params.minter),
    limit: limit.toString(),
    issued: issued.toString(),
    active,
  };
};

export const pspCampaign: Handler<typeof routes.pspCampaign> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const id = campaignId(params.campaignId);
  const vault = contract(t, "pspVault");
  const c = await read(t, "pspVault", () => vault.getFunction("getCampaign")(id.value));
  const [[funder, programFunded], closeRecipient, treasury] = await read(t, "pspVault", () =>
    Promise.all([
      vault.getFunction("fundingOf")(id.value),
      vault.getFunction("closeRecipient")(id.value),
      vault.getFunction("treasury")(),
    ]),
  );
  return {
    campaignId: id,
    budget: c.budget.toString(),
    available: c.available.toString(),
    outstanding: c.outstanding.toString(),
    status: STATUS[Number(c.status)] as Exclude<(typeof STATUS)[number], "None">,
    creator: getAddress(c.creator),
    metadata: chainText(c.metadata),
    funder: getAddress(funder),
    programFunded: programFunded.toString(),
    closeRecipient: getAddress(closeRecipient),
    treasury: getAddress(treasury),
  };
};

export const pspBalance: Handler<typeof routes.pspBalance> = async ({ params, query }, ctx) => {
  const t = await target(ctx, query.program);
  const id = campaignId(params.campaignId);
  const balance: bigint = await withCampaign(t, id.value, () =>
    read(t, "pspVault", () => contract(t, "pspVault").getFunction("balanceOf")(id.value, params.holder)),
  );
  return { campaignId: id, holder: getAddress(params.holder), balance: balance.toString() };
};
