import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import type { Program } from "../../../core/registry/programs.js";
import { notFound } from "../../../core/errors.js";
import { campaignId } from "../../../core/program/campaign.js";
import { eventsPage, factoryEventsAt, programBlock } from "../../../core/ledger/read.js";
import { foldProgram } from "../../../core/ledger/state.js";
import {
  allowlistsOf,
  campaignsOf,
  hasCampaign,
  onSnapshot,
  pspHoldersPage,
  rolesOf,
  spHoldersPage,
} from "../../../core/ledger/stateRead.js";
import type { Queryable } from "../../../core/db/db.js";
import { customersPage } from "../../../core/ledger/customers.js";
import { roleName } from "../../../core/chain/contracts.js";
import { requireReadable } from "../../../core/ledger/tenant.js";
import type { Caller } from "../../../core/auth/caller.js";

const STATUS = { active: "Active", paused: "Paused", closed: "Closed" } as const;
const DEFAULT_LIMIT = 100;

/**
 * The program, its ledger block and `read` of the state tables, on one snapshot: the state is
 * the state as of that block (the tables move in the indexer's commit, with the block).
 */
async function stateAt<T>(
  ctx: Ctx,
  ref: string | undefined,
  caller: Caller,
  read: (q: Queryable, program: Program) => Promise<T>,
): Promise<{ program: Program; blockNumber: number | null; state: T }> {
  const program = await ctx.programs.resolve(ref);
  await requireReadable(ctx, program, caller, ref);
  return onSnapshot(ctx.db, async (q) => {
    const blockNumber = await programBlock(q, program.chainId, program.id);
    return { program, blockNumber, state: await read(q, program) };
  });
}

/** The program and the block every part of the answer is consistent with. */
async function at(
  ctx: Ctx,
  ref: string | undefined,
  caller: Caller,
): Promise<{ program: Program; blockNumber: number | null }> {
  const program = await ctx.programs.resolve(ref);
  await requireReadable(ctx, program, caller, ref);
  return { program, blockNumber: await programBlock(ctx.db, program.chainId, program.id) };
}

const head = (p: Program, blockNumber: number | null) => ({ program: p.id, chainId: p.chainId, blockNumber });

export const ledgerCampaigns: Handler<typeof routes.ledgerCampaigns> = async ({ query, caller }, ctx) => {
  const {
    program,
    blockNumber,
    state: campaigns,
  } = await stateAt(ctx, query.program, caller, (q, p) => campaignsOf(q, p.chainId, p.id));
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

export const ledgerCampaignBalances: Handler<typeof routes.ledgerCampaignBalances> = async (
  { params, query, caller },
  ctx,
) => {
  const id = campaignId(params.campaignId);
  const { program, blockNumber, state } = await stateAt(ctx, query.program, caller, async (q, p) =>
    (await hasCampaign(q, p.chainId, p.id, id.value))
      ? pspHoldersPage(q, p.chainId, p.id, id.value, query.cursor, query.limit ?? DEFAULT_LIMIT)
      : null,
  );
  if (!state) {
    throw notFound(`program ${program.id} has no campaign ${id.value} in the ledger (as of block ${blockNumber})`);
  }
  return { ...head(program, blockNumber), campaignId: id, ...state };
};

export const ledgerHolderHistory: Handler<typeof routes.ledgerHolderHistory> = async (
  { params, query, caller },
  ctx,
) => {
  const { program, blockNumber } = await at(ctx, query.program, caller);
  const filter = { account: params.address };
  const limit = query.limit ?? DEFAULT_LIMIT;
  const page = await eventsPage(ctx.db, program.id, filter, blockNumber, query.cursor, limit, query.metadata);
  return { ...head(program, blockNumber), address: getAddress(params.address), ...page };
};

export const ledgerRoles: Handler<typeof routes.ledgerRoles> = async ({ query, caller }, ctx) => {
  const { program, blockNumber, state } = await stateAt(ctx, query.program, caller, (q, p) =>
    rolesOf(q, p.chainId, p.id),
  );
  return {
    ...head(program, blockNumber),
    contracts: state.map((c) => ({
      contract: c.contract as "points" | "factory" | "collateralVault" | "pspVault" | "oracle",
      address: c.address,
      roles: c.roles.map((r) => ({ role: roleName(r.role), holders: r.holders })),
    })),
  };
};

export const ledgerRoleHistory: Handler<typeof routes.ledgerRoleHistory> = async ({ query, caller }, ctx) => {
  const { program, blockNumber } = await at(ctx, query.program, caller);
  const filter = { events: ["RoleGranted", "RoleRevoked"] };
  const page = await eventsPage(ctx.db, program.id, filter, blockNumber, query.cursor, query.limit ?? DEFAULT_LIMIT);
  return { ...head(program, blockNumber), ...page };
};

export const ledgerAllowlists: Handler<typeof routes.ledgerAllowlists> = async ({ query, caller }, ctx) => {
  const { program, blockNumber, state } = await stateAt(ctx, query.program, caller, (q, p) =>
    allowlistsOf(q, p.chainId, p.id),
  );
  return { ...head(program, blockNumber), ...state };
};

export const ledgerSpHolders: Handler<typeof routes.ledgerSpHolders> = async ({ query, caller }, ctx) => {
  const { program, blockNumber, state } = await stateAt(ctx, query.program, caller, (q, p) =>
    spHoldersPage(q, p.chainId, p.id, query.cursor, query.limit ?? DEFAULT_LIMIT),
  );
  return { ...head(program, blockNumber), ...state };
};

export const ledgerCustomers: Handler<typeof routes.ledgerCustomers> = async ({ query, caller }, ctx) => {
  const { program, blockNumber, state } = await stateAt(ctx, query.program, caller, async (q, p) => {
    const own = [p.points, p.factory, p.collateralVault, p.pspVault, ...(p.oracle ? [p.oracle] : [])];
    const at = await programBlock(q, p.chainId, p.id);
    const filter = { prefix: query.prefix, minBalance: query.minBalance };
    return customersPage(q, p.chainId, p.id, at, own, filter, query.cursor, query.limit ?? DEFAULT_LIMIT);
  });
  return { ...head(program, blockNumber), ...state };
};

const iso = (a: { blockNumber: number; txHash: string; time: number }) => ({
  ...a,
  time: new Date(a.time * 1000).toISOString(),
});

export const ledgerRedemptions: Handler<typeof routes.ledgerRedemptions> = async ({ query, caller }, ctx) => {
  // Redemptions fold the program's Factory events only (requests are few next to transfers).
  const { program, blockNumber } = await at(ctx, query.program, caller);
  const state = foldProgram(await factoryEventsAt(ctx.db, program.id, blockNumber), Math.floor(Date.now() / 1000));
  const limit = query.limit ?? DEFAULT_LIMIT;
  const before = query.cursor === undefined ? undefined : BigInt(query.cursor);
  const all = state.redemptions
    .filter((r) => !query.status || r.status === query.status)
    .filter((r) => before === undefined || BigInt(r.requestId) < before)
    .sort((a, b) => (BigInt(a.requestId) > BigInt(b.requestId) ? -1 : 1));
  const page = all.slice(0, limit);
  return {
    ...head(program, blockNumber),
    requests: page.map((r) => ({
      ...r,
      amount: r.amount.toString(),
      readyAt: new Date(r.readyAt * 1000).toISOString(),
      requestedAt: iso(r.requestedAt),
      closedAt: r.closedAt && iso(r.closedAt),
    })),
    nextCursor: all.length > limit ? page[page.length - 1]!.requestId : null,
  };
};

export const ledgerCampaignLedger: Handler<typeof routes.ledgerCampaignLedger> = async (
  { params, query, caller },
  ctx,
) => {
  const { program, blockNumber } = await at(ctx, query.program, caller);
  const id = campaignId(params.campaignId);
  const filter = { campaignId: id.value };
  const page = await eventsPage(ctx.db, program.id, filter, blockNumber, query.cursor, query.limit ?? DEFAULT_LIMIT);
  return { ...head(program, blockNumber), campaignId: id, ...page };
};
