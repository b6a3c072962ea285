import type { routes } from "@points/schema";
import type { Ctx, BuildHandler } from "../../../core/context.js";
import {
  campaignCall,
  campaignCheck,
  contract,
  programCall,
  read,
  target,
  type Target,
} from "../../../core/program/target.js";
import { afterAllowance, type Allowance } from "../../../core/program/allowance.js";
import { campaignId } from "../../../core/program/campaign.js";
import { roleHash } from "../../../core/chain/contracts.js";
import type { Call } from "../../../core/chain/build.js";

/**
 * Campaign funding pulls the signer's SP; only a MANAGER_ROLE holder draws on unallocated SP
 * first (docs/rules.md#campaigns), so the signer needs an SP allowance for the PSPVault for the
 * rest (asked for once the simulation shows it).
 */
const funding = (t: Target, from: string, amount: bigint) => async (): Promise<Allowance | null> => {
  const vault = contract(t, "pspVault");
  const manager: boolean = await read(t, "pspVault", () =>
    vault.getFunction("hasRole")(roleHash("MANAGER_ROLE"), from),
  );
  const unallocated: bigint = manager ? await read(t, "pspVault", () => vault.getFunction("unallocated")()) : 0n;
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
): Promise<Call> {
  const t = await target(ctx, body.program);
  const id = campaignId(body.campaignId);
  const call = afterAllowance(
    t,
    { contract: "pspVault", fn, args: args(id.value), from: body.from, moves: "points", extra: { campaignId: id } },
    funding(t, body.from, amount),
  );
  // Funding an existing campaign answers an unknown one as every campaign route does (docs/errors.md#unknown-campaign).
  return fn === "fundCampaign" ? { ...call, check: campaignCheck(t, id.value) } : call;
}

export const pspCreateCampaign: BuildHandler<typeof routes.pspCreateCampaign> = ({ body }, ctx) =>
  fundingCall(ctx, body, BigInt(body.spBudget), "createCampaign", (id) => [
    id,
    BigInt(body.spBudget),
    body.settlementDestinations,
    body.transferWhitelist,
    body.metadata,
  ]);

export const pspFundCampaign: BuildHandler<typeof routes.pspFundCampaign> = ({ body }, ctx) =>
  fundingCall(ctx, body, BigInt(body.amount), "fundCampaign", (id) => [id, BigInt(body.amount)]);

const statusTx =
  (fn: "pauseCampaign" | "resumeCampaign"): BuildHandler<typeof routes.pspPauseCampaign> =>
  ({ body }, ctx) =>
    campaignCall(ctx, body, fn, (id) => [id]);

export const pspPauseCampaign = statusTx("pauseCampaign");
export const pspResumeCampaign = statusTx("resumeCampaign");

/** Without `to`, the campaign's closeRecipient (its funder) is read from the chain. */
export const pspCloseCampaign: BuildHandler<typeof routes.pspCloseCampaign> = async ({ body }, ctx) => {
  const to =
    body.to ??
    (await (async () => {
      const t = await target(ctx, body.program);
      const id = campaignId(body.campaignId).value;
      return read(t, "pspVault", () => contract(t, "pspVault").getFunction("closeRecipient")(id) as Promise<string>);
    })());
  return campaignCall(ctx, body, "closeCampaign", (id) => [id, to]);
};

export const pspRevokeCreator: BuildHandler<typeof routes.pspRevokeCreator> = ({ body }, ctx) =>
  campaignCall(ctx, body, "revokeCreator", (id) => [id]);

export const pspSetTreasury: BuildHandler<typeof routes.pspSetTreasury> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "pspVault",
    fn: "setTreasury",
    args: [body.treasury],
    from: body.from,
  });
