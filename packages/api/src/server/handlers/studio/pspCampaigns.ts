import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import { campaignTx, contract, read, target, tx, withCampaign, type Target } from "../../../core/program/target.js";
import { txAfterAllowance, type Allowance } from "../../../core/program/allowance.js";
import { campaignId } from "../../../core/program/campaign.js";
import { roleHash } from "../../../core/chain/contracts.js";

/**
 * Campaign funding pulls the signer's SP; only a MANAGER_ROLE holder draws on unallocated SP
 * first (docs/rules.md#campaigns), so the signer needs an SP allowance for the PSPVault for the
 * rest (asked for once the simulation shows it).
 */
const funding = (t: Target, from: string, amount: bigint) => async (): Promise<Allowance | null> => {
  const vault = contract(t, "pspVault");
  const manager: boolean = await read(t, "pspVault", () => vault.hasRole(roleHash("MANAGER_ROLE"), from));
  const unallocated: bigint = manager ? await read(t, "pspVault", () => vault.unallocated()) : 0n;
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
  const build = () => txAfterAllowance(t, call, funding(t, body.from, amount));
  // Funding an existing campaign answers an unknown one as every campaign route does (docs/errors.md#unknown-campaign).
  return fn === "fundCampaign" ? withCampaign(t, id.value, build) : build();
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

/** Without `to`, the campaign's closeRecipient (its funder) is read from the chain. */
export const pspCloseCampaign: Handler<typeof routes.pspCloseCampaign> = async ({ body }, ctx) => {
  const to =
    body.to ??
    (await (async () => {
      const t = await target(ctx, body.program);
      const id = campaignId(body.campaignId).value;
      return read(t, "pspVault", () => contract(t, "pspVault").closeRecipient(id) as Promise<string>);
    })());
  return campaignTx(ctx, body, "closeCampaign", (id) => [id, to]);
};

export const pspRevokeCreator: Handler<typeof routes.pspRevokeCreator> = ({ body }, ctx) =>
  campaignTx(ctx, body, "revokeCreator", (id) => [id]);

export const pspSetTreasury: Handler<typeof routes.pspSetTreasury> = async ({ body }, ctx) =>
  tx(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "setTreasury",
    args: [body.treasury],
    from: body.from,
  });
