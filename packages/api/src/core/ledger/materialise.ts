import type { Queryable } from "../db/db.js";

/** What the state tables need of a stored event. */
export interface StateEvent {
  programId: string | null;
  contract: string;
  address: string;
  event: string | null;
  args: Record<string, unknown>;
  blockNumber: number;
  logIndex: number;
}

interface Campaign {
  campaignId: string;
  creator: string;
  status: string;
  budget: bigint;
  available: bigint;
  outstanding: bigint;
  metadata: string;
  createdBlock: number;
  createdLog: number;
}

interface Minter {
  campaignId: string;
  minter: string;
  limit: bigint;
  issued: bigint;
  active: boolean;
}

// CampaignStatus: None, Active, Paused, Closed.
const STATUS = [null, "active", "paused", "closed"] as const;
const ZERO = "0x0000000000000000000000000000000000000000";
const CAMPAIGN_LISTS = {
  CampaignAdminUpdated: "admins",
  SettlementWhitelistUpdated: "settlementWhitelist",
  TransferWhitelistUpdated: "transferWhitelist",
} as const;

const str = (v: unknown) => String(v);
const big = (v: unknown) => (v === undefined ? 0n : BigInt(v as string));

/**
 * Applies newly stored events (each exactly once) to the program state tables, in the indexer's
 * commit transaction: the same rules as the chain (docs/rules.md#campaigns), so the tables equal
 * a fold of every stored event. Order-dependent campaign fields are folded over the touched rows;
 * balances move by summed deltas; list memberships and roles take each key's last event.
 */
export async function applyEvents(tx: Queryable, chainId: string, events: StateEvent[]): Promise<void> {
  const byProgram = new Map<string, StateEvent[]>();
  for (const e of events) {
    if (!e.programId || !e.event) continue;
    (byProgram.get(e.programId) ?? byProgram.set(e.programId, []).get(e.programId)!).push(e);
  }
  for (const [programId, evs] of byProgram) {
    evs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    await applyProgram(tx, chainId, programId, evs);
  }
}

async function applyProgram(tx: Queryable, chainId: string, programId: string, evs: StateEvent[]) {
  const key = [chainId, programId];
  const touched = [...new Set(evs.filter((e) => e.contract === "pspVault").map((e) => str(e.args.campaignId)))];
  const campaigns = new Map<string, Campaign>();
  const minters = new Map<string, Minter>(); // `${campaignId}|${minter}`
  if (touched.length > 0) {
    for (const r of await tx.query<Record<string, string>>(
      `SELECT campaign_id, creator, status, budget::text, available::text, outstanding::text, metadata,
         created_block::text, created_log FROM ledger_campaigns
       WHERE chain_id = $1 AND program_id = $2 AND campaign_id = ANY($3::text[])`,
      [...key, touched],
    )) {
      campaigns.set(r.campaign_id!, {
        campaignId: r.campaign_id!,
        creator: r.creator!,
        status: r.status!,
        budget: BigInt(r.budget!),
        available: BigInt(r.available!),
        outstanding: BigInt(r.outstanding!),
        metadata: r.metadata!,
        createdBlock: Number(r.created_block),
        createdLog: Number(r.created_log),
      });
    }
    for (const r of await tx.query<Record<string, string | boolean>>(
      `SELECT campaign_id, minter, mint_limit::text, issued::text, active FROM ledger_campaign_minters
       WHERE chain_id = $1 AND program_id = $2 AND campaign_id = ANY($3::text[])`,
      [...key, touched],
    )) {
      const m = {
        campaignId: str(r.campaign_id),
        minter: str(r.minter),
        limit: BigInt(str(r.mint_limit)),
        issued: BigInt(str(r.issued)),
        active: r.active === true,
      };
      minters.set(`${m.campaignId}|${m.minter}`, m);
    }
  }
  const dirtyCampaigns = new Set<string>();
  const dirtyMinters = new Set<string>();
  const members = new Map<string, boolean>(); // `${campaignId}|${list}|${account}`
  const psp = new Map<string, bigint>(); // `${campaignId}|${holder lowercase}`
  const sp = new Map<string, bigint>(); // holder lowercase
  const allow = new Map<string, boolean>(); // `${list}|${account}`
  const roles = new Map<string, { contract: string; held: boolean; block: number; log: number }>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  const pspKey = (cid: string, holder: unknown) => `${cid}|${str(holder).toLowerCase()}`;

  for (const e of evs) {
    const { args } = e;
    if (e.event === "RoleGranted" || e.event === "RoleRevoked") {
      const k = `${e.address.toLowerCase()}|${str(args.role)}|${str(args.account)}`;
      const was = roles.get(k);
      roles.set(k, {
        contract: e.contract,
        held: e.event === "RoleGranted",
        block: was?.block ?? e.blockNumber,
        log: was?.log ?? e.logIndex,
      });
      continue;
    }
    if (e.contract === "points") {
      if (e.event === "Transfer") {
        add(sp, str(args.from).toLowerCase(), -big(args.value));
        add(sp, str(args.to).toLowerCase(), big(args.value));
      } else if (e.event === "TransferWhitelistUpdated") allow.set(`transfer|${str(args.account)}`, !!args.whitelisted);
      continue;
    }
    if (e.contract === "factory") {
      if (e.event === "MintWhitelistUpdated") allow.set(`mint|${str(args.account)}`, !!args.whitelisted);
      else if (e.event === "RedeemWhitelistUpdated") allow.set(`redeem|${str(args.account)}`, !!args.whitelisted);
      continue;
    }
    if (e.contract !== "pspVault") continue;
    const id = str(args.campaignId);
    const c = campaigns.get(id);
    const amount = big(args.amount);
    if (e.event === "CampaignCreated") {
      campaigns.set(id, {
        campaignId: id,
        creator: str(args.creator),
        status: "active",
        // The budget arrives with the CampaignFunded event the creation emits.
        budget: 0n,
        available: 0n,
        outstanding: 0n,
        metadata: str(args.metadata),
        createdBlock: e.blockNumber,
        createdLog: e.logIndex,
      });
      dirtyCampaigns.add(id);
      members.set(`${id}|admins|${str(args.creator)}`, true);
      continue;
    }
    if ((e.event as string) in CAMPAIGN_LISTS) {
      const list = CAMPAIGN_LISTS[e.event as keyof typeof CAMPAIGN_LISTS];
      members.set(`${id}|${list}|${str(args.account)}`, !!args.allowed);
      continue;
    }
    if (e.event === "PSPTransferred") {
      add(psp, pspKey(id, args.from), -amount);
      add(psp, pspKey(id, args.to), amount);
      continue;
    }
    // The rest change a campaign; a campaign the ledger never saw created (not possible on the chain) is skipped.
    if (!c) continue;
    dirtyCampaigns.add(id);
    switch (e.event) {
      case "CampaignFunded":
        c.budget += amount;
        c.available += amount;
        break;
      case "CampaignStatusUpdated":
        c.status = STATUS[Number(args.status)] ?? c.status;
        break;
      case "CampaignClosed":
        c.available = 0n;
        break;
      case "PSPMinted": {
        c.available -= amount;
        c.outstanding += amount;
        add(psp, pspKey(id, args.to), amount);
        const m = minters.get(`${id}|${str(args.minter)}`);
        if (m) {
          m.issued += amount;
          dirtyMinters.add(`${id}|${m.minter}`);
        }
        break;
      }
      case "PSPSettled":
        c.outstanding -= amount;
        add(psp, pspKey(id, args.holder), -amount);
        break;
      case "PSPExpired":
        c.outstanding -= amount;
        if (c.status !== "closed") c.available += amount;
        add(psp, pspKey(id, args.holder), -amount);
        break;
      case "MinterConfigured": {
        const k = `${id}|${str(args.minter)}`;
        const m = minters.get(k) ?? { campaignId: id, minter: str(args.minter), limit: 0n, issued: 0n, active: false };
        m.limit = big(args.limit);
        m.active = !!args.active;
        minters.set(k, m);
        dirtyMinters.add(k);
        break;
      }
    }
  }
  await writeState(tx, key, {
    campaigns: [...dirtyCampaigns].map((id) => campaigns.get(id)!),
    minters: [...dirtyMinters].map((k) => minters.get(k)!),
    members,
    psp,
    sp,
    allow,
    roles,
  });
}

async function writeState(
  tx: Queryable,
  key: string[],
  s: {
    campaigns: Campaign[];
    minters: Minter[];
    members: Map<string, boolean>;
    psp: Map<string, bigint>;
    sp: Map<string, bigint>;
    allow: Map<string, boolean>;
    roles: Map<string, { contract: string; held: boolean; block: number; log: number }>;
  },
) {
  for (const c of s.campaigns) {
    await tx.query(
      `INSERT INTO ledger_campaigns (chain_id, program_id, campaign_id, creator, status, budget, available, outstanding,
         metadata, created_block, created_log) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (chain_id, program_id, campaign_id) DO UPDATE SET status = EXCLUDED.status,
         budget = EXCLUDED.budget, available = EXCLUDED.available, outstanding = EXCLUDED.outstanding`,
      [
        ...key,
        c.campaignId,
        c.creator,
        c.status,
        c.budget.toString(),
        c.available.toString(),
        c.outstanding.toString(),
        c.metadata,
        c.createdBlock,
        c.createdLog,
      ],
    );
  }
  for (const m of s.minters) {
    await tx.query(
      `INSERT INTO ledger_campaign_minters (chain_id, program_id, campaign_id, minter, mint_limit, issued, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (chain_id, program_id, campaign_id, minter)
       DO UPDATE SET mint_limit = EXCLUDED.mint_limit, issued = EXCLUDED.issued, active = EXCLUDED.active`,
      [...key, m.campaignId, m.minter, m.limit.toString(), m.issued.toString(), m.active],
    );
  }
  for (const [k, on] of s.members) {
    const [cid, list, account] = k.split("|");
    await tx.query(
      on
        ? `INSERT INTO ledger_campaign_members (chain_id, program_id, campaign_id, list, account)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`
        : `DELETE FROM ledger_campaign_members
           WHERE chain_id = $1 AND program_id = $2 AND campaign_id = $3 AND list = $4 AND account = $5`,
      [...key, cid, list, account],
    );
  }
  for (const [k, on] of s.allow) {
    const [list, account] = k.split("|");
    await tx.query(
      on
        ? `INSERT INTO ledger_allowlists (chain_id, program_id, list, account) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`
        : "DELETE FROM ledger_allowlists WHERE chain_id = $1 AND program_id = $2 AND list = $3 AND account = $4",
      [...key, list, account],
    );
  }
  for (const [k, r] of s.roles) {
    const [address, role, account] = k.split("|");
    await tx.query(
      `INSERT INTO ledger_role_holders (chain_id, program_id, address, contract, role, account, held, first_block, first_log)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (chain_id, address, role, account) DO UPDATE SET held = EXCLUDED.held`,
      [...key, address, r.contract, role, account, r.held, r.block, r.log],
    );
  }
  const psp = [...s.psp].filter(([, v]) => v !== 0n);
  if (psp.length > 0) {
    const [cids, holders, deltas] = [
      psp.map(([k]) => k.split("|")[0]),
      psp.map(([k]) => k.split("|")[1]),
      psp.map(([, v]) => v.toString()),
    ];
    await tx.query(
      `INSERT INTO ledger_psp_balances AS b (chain_id, program_id, campaign_id, holder, balance)
       SELECT $1, $2, c, h, d FROM unnest($3::text[], $4::text[], $5::numeric[]) AS u(c, h, d)
       ON CONFLICT (chain_id, program_id, campaign_id, holder) DO UPDATE SET balance = b.balance + EXCLUDED.balance`,
      [...key, cids, holders, deltas],
    );
    await tx.query(
      `DELETE FROM ledger_psp_balances WHERE chain_id = $1 AND program_id = $2 AND balance = 0
         AND (campaign_id, holder) IN (SELECT c, h FROM unnest($3::text[], $4::text[]) AS u(c, h))`,
      [...key, cids, holders],
    );
  }
  const sp = [...s.sp].filter(([h, v]) => v !== 0n && h !== ZERO);
  if (sp.length > 0) {
    const [holders, deltas] = [sp.map(([h]) => h), sp.map(([, v]) => v.toString())];
    await tx.query(
      `INSERT INTO ledger_sp_balances AS b (chain_id, program_id, holder, balance)
       SELECT $1, $2, h, d FROM unnest($3::text[], $4::numeric[]) AS u(h, d)
       ON CONFLICT (chain_id, program_id, holder) DO UPDATE SET balance = b.balance + EXCLUDED.balance`,
      [...key, holders, deltas],
    );
    await tx.query(
      `DELETE FROM ledger_sp_balances WHERE chain_id = $1 AND program_id = $2 AND balance = 0
         AND holder = ANY($3::text[])`,
      [...key, holders],
    );
  }
}

/** The state tables' rows of these programs go (a reorg rebuilds them from the events left). */
export async function clearState(tx: Queryable, chainId: string, programIds: string[]): Promise<void> {
  for (const t of [
    "ledger_campaigns",
    "ledger_campaign_minters",
    "ledger_campaign_members",
    "ledger_psp_balances",
    "ledger_sp_balances",
    "ledger_allowlists",
    "ledger_role_holders",
  ]) {
    await tx.query(`DELETE FROM ${t} WHERE chain_id = $1 AND program_id = ANY($2::text[])`, [chainId, programIds]);
  }
}

/** Rebuilds the programs' state from their stored events, in chain order, a page at a time. */
export async function rebuildState(tx: Queryable, chainId: string, programIds: string[]): Promise<void> {
  await clearState(tx, chainId, programIds);
  const PAGE = 5000;
  for (const programId of programIds) {
    let after: [number, number] = [-1, -1];
    for (;;) {
      const rows = await tx.query<{
        block_number: string | number;
        log_index: number;
        contract: string;
        address: string;
        event: string | null;
        args: Record<string, unknown> | string;
      }>(
        `SELECT block_number, log_index, contract, address, event, args FROM ledger_events
         WHERE program_id = $1 AND chain_id = $2 AND (block_number, log_index) > ($3, $4)
         ORDER BY block_number, log_index LIMIT $5`,
        [programId, chainId, after[0], after[1], PAGE],
      );
      await applyEvents(
        tx,
        chainId,
        rows.map((r) => ({
          programId,
          contract: r.contract,
          address: r.address,
          event: r.event,
          args: typeof r.args === "string" ? JSON.parse(r.args) : r.args,
          blockNumber: Number(r.block_number),
          logIndex: r.log_index,
        })),
      );
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1]!;
      after = [Number(last.block_number), last.log_index];
    }
  }
}
