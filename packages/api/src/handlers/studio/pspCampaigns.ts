import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { campaignTx, contract, read, target, tx, withCampaign, type Target } from "../../program/target.js";
import { txAfterAllowance, type Allowance } from "../../program/allowance.js";
import { campaignId } from "../../program/campaign.js";

/**
 * Campaign funding pulls SP beyond what is unallocated in the vault, so the signer needs an
 * SP allowance for the PSPVault for that part only (asked for once the simulation shows it).
 */
const funding = (t: Target, from: string, amount: bigint) => async (): Promise<Allowance | null> => {
  const unallocated: bigint = await read(t, "pspVault", () => contract(t, "pspVault").unallocated());
  if (amount <= unallocated) return null;
  return {
    token: t.program.points,
    tokenContract: "points",
    owner: from,
    spender: t.program.pspVault,
    spenderName: "PSPVault",
    amount: amount - unallocated,
  };
};

export const pspCreateCampaign: Handler<typeof routes.pspCreateCampaign> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  const call = {
    contract: "pspVault" as const,
    fn: "createCampaign",
    args: [id.value, BigInt(body.spBudget), body.settlementDestinations, body.transferWhitelist, body.metadata],
    from: body.from,
    moves: "points" as const,
    extra: { campaignId: id },
  };
  return txAfterAllowance(t, call, funding(t, body.from, BigInt(body.spBudget)));
};

export const pspFundCampaign: Handler<typeof routes.pspFundCampaign> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  const call = {
    contract: "pspVault" as const,
    fn: "fundCampaign",
    args: [id.value, BigInt(body.amount)],
    from: body.from,
    moves: "points" as const,
    extra: { campaignId: id },
  };
  return withCampaign(t, id.value, () => txAfterAllowance(t, call, funding(t, body.from, BigInt(body.amount))));
};

const statusTx =
  (fn: "pauseCampaign" | "resumeCampaign"): Handler<typeof routes.pspPauseCampaign> =>
  ({ body }, ctx) =>
    campaignTx(ctx, body, fn, (id) => [id]);

export const pspPauseCampaign = statusTx("pauseCampaign");
export const pspResumeCampaign = statusTx("resumeCampaign");

export const pspCloseCampaign: Handler<typeof routes.pspCloseCampaign> = ({ body }, ctx) =>
  campaignTx(ctx, body, "closeCampaign", (id) => [id, body.to]);
