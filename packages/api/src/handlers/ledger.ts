import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../context.js";
import type { Program } from "../registry/programs.js";
import { notFound } from "../errors.js";
import { campaignId } from "../program/campaign.js";
import { holderHistory, holdersPage, programBlock, pspStateAt } from "../ledger/read.js";

const STATUS = { active: "Active", paused: "Paused", closed: "Closed" } as const;
const DEFAULT_LIMIT = 100;

/** The program and the block every part of the answer is consistent with. */
async function at(ctx: Ctx, ref: string | undefined): Promise<{ program: Program; blockNumber: number | null }> {
  const program = await ctx.programs.resolve(ref);
  return { program, blockNumber: await programBlock(ctx.db, program.chainId, program.id) };
}

const head = (p: Program, blockNumber: number | null) => ({ program: p.id, chainId: p.chainId, blockNumber });

export const ledgerCampaigns: Handler<typeof routes.ledgerCampaigns> = async ({ query }, ctx) => {
  const { program, blockNumber } = await at(ctx, query.program);
  const { campaigns } = await pspStateAt(ctx.db, program.id, blockNumber);
  return {
    ...head(program, blockNumber),
    campaigns: campaigns.map((c) => ({
      campaignId: c.campaignId,
      budget: c.budget.toString(),
      available: c.available.toString(),
      outstanding: c.outstanding.toString(),
      status: STATUS[c.status],
      creator: c.creator,
      metadata: c.metadata,
      admins: c.admins,
      settlementWhitelist: c.settlementWhitelist,
      transferWhitelist: c.transferWhitelist,
      minters: c.minters.map((m) => ({ ...m, limit: m.limit.toString(), issued: m.issued.toString() })),
    })),
  };
};

export const ledgerCampaignBalances: Handler<typeof routes.ledgerCampaignBalances> = async ({ params, query }, ctx) => {
  const { program, blockNumber } = await at(ctx, query.program);
  const id = campaignId(params.campaignId);
  const { campaigns, balances } = await pspStateAt(ctx.db, program.id, blockNumber);
  if (!campaigns.some((c) => c.campaignId === id.value)) {
    throw notFound(`program ${program.id} has no campaign ${id.value} in the ledger (as of block ${blockNumber})`);
  }
  return {
    ...head(program, blockNumber),
    campaignId: id,
    ...holdersPage(balances, id.value, query.cursor, query.limit ?? DEFAULT_LIMIT),
  };
};

export const ledgerHolderHistory: Handler<typeof routes.ledgerHolderHistory> = async ({ params, query }, ctx) => {
  const { program, blockNumber } = await at(ctx, query.program);
  const page = await holderHistory(
    ctx.db,
    program.id,
    params.address,
    blockNumber,
    query.cursor,
    query.limit ?? DEFAULT_LIMIT,
  );
  return { ...head(program, blockNumber), address: getAddress(params.address), ...page };
};
