import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { campaignId, contract, read, requireAllowance, target, tx, type Target } from "../common.js";

/**
 * Campaign funding pulls SP beyond what is unallocated in the vault, so the signer needs an
 * SP allowance for the PSPVault for that part only.
 */
async function requireFunding(t: Target, from: string, amount: bigint) {
  const unallocated: bigint = await read(t, "pspVault", () => contract(t, "pspVault").unallocated());
  if (amount <= unallocated) return;
  await requireAllowance(t, {
    token: t.program.points,
    tokenContract: "points",
    owner: from,
    spender: t.program.pspVault,
    spenderName: "PSPVault",
    amount: amount - unallocated,
  });
}

export const pspCreateCampaign: Handler<typeof routes.pspCreateCampaign> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  await requireFunding(t, body.from, BigInt(body.spBudget));
  return tx(t, {
    contract: "pspVault",
    fn: "createCampaign",
    args: [id.value, BigInt(body.spBudget), body.settlementDestinations, body.transferWhitelist, body.metadata],
    from: body.from,
    extra: { campaignId: id },
  });
};

export const pspFundCampaign: Handler<typeof routes.pspFundCampaign> = async ({ body }, ctx) => {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  await requireFunding(t, body.from, BigInt(body.amount));
  return tx(t, {
    contract: "pspVault",
    fn: "fundCampaign",
    args: [id.value, BigInt(body.amount)],
    from: body.from,
    extra: { campaignId: id },
  });
};

const statusTx =
  (fn: "pauseCampaign" | "resumeCampaign"): Handler<typeof routes.pspPauseCampaign> =>
  async ({ body }, ctx) => {
    const id = campaignId(body.campaignId);
    return tx(await target(ctx, body.program), {
      contract: "pspVault",
      fn,
      args: [id.value],
      from: body.from,
      extra: { campaignId: id },
    });
  };

export const pspPauseCampaign = statusTx("pauseCampaign");
export const pspResumeCampaign = statusTx("resumeCampaign");

export const pspCloseCampaign: Handler<typeof routes.pspCloseCampaign> = async ({ body }, ctx) => {
  const id = campaignId(body.campaignId);
  return tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "closeCampaign",
    args: [id.value, body.to],
    from: body.from,
    extra: { campaignId: id },
  });
};
