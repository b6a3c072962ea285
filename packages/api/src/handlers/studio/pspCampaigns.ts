import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../context.js";
import { campaignTx, contract, read, target, tx, type Target } from "../../program/target.js";
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

/** A campaign call that moves `amount` SP from `from` into the vault, after its approval. */
async function fundingCall(
  ctx: Ctx,
  body: { program?: string; campaignId: string; from: string },
  amount: bigint,
  fn: "createCampaign" | "fundCampaign",
  args: (id: string) => unknown[],
) {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  const call = {
    contract: "pspVault" as const,
    fn,
    args: args(id.value),
    from: body.from,
    moves: "points" as const,
    extra: { campaignId: id },
  };
  return txAfterAllowance(t, call, funding(t, body.from, amount));
}

export const pspCreateCampaign: Handler<typeof routes.pspCreateCampaign> = ({ body }, ctx) =>
  fundingCall(ctx, body, BigInt(body.spBudget), "createCampaign", (id) => [
    id,
    BigInt(body.spBudget),
    body.settlementDestinations,
    body.transferWhitelist,
    body.metadata,
  ]);

export const pspFundCampaign: Handler<typeof routes.pspFundCampaign> = ({ body }, ctx) =>
  fundingCall(ctx, body, BigInt(body.amount), "fundCampaign", (id) => [id, BigInt(body.amount)]);

const statusTx =
  (fn: "pauseCampaign" | "resumeCampaign"): Handler<typeof routes.pspPauseCampaign> =>
  ({ body }, ctx) =>
    campaignTx(ctx, body, fn, (id) => [id]);

export const pspPauseCampaign = statusTx("pauseCampaign");
export const pspResumeCampaign = statusTx("resumeCampaign");

export const pspCloseCampaign: Handler<typeof routes.pspCloseCampaign> = ({ body }, ctx) =>
  campaignTx(ctx, body, "closeCampaign", (id) => [id, body.to]);
