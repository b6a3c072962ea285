import { getAddress } from "ethers";
import type { Db, Queryable } from "../db/db.js";
import type { LedgerCampaign } from "./state.js";

/**
 * Runs `fn` on one snapshot of the database, so the ledger block an answer names and the state
 * it reads belong together even while the indexer commits (PostgreSQL: repeatable read).
 */
export function onSnapshot<T>(db: Db, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    return fn(tx);
  });
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A program's campaigns from the state tables, in creation order, with minters and lists. */
export async function campaignsOf(q: Queryable, chainId: string, programId: string): Promise<LedgerCampaign[]> {
  const key = [chainId, programId];
  const rows = await q.query<Record<string, string>>(
    `SELECT campaign_id, creator, status, budget::text, available::text, outstanding::text, metadata
     FROM ledger_campaigns WHERE chain_id = $1 AND program_id = $2 ORDER BY created_block, created_log`,
    key,
  );
  const minters = await q.query<{
    campaign_id: string;
    minter: string;
    mint_limit: string;
    issued: string;
    active: boolean;
  }>(
    `SELECT campaign_id, minter, mint_limit::text, issued::text, active FROM ledger_campaign_minters
     WHERE chain_id = $1 AND program_id = $2`,
    key,
  );
  const members = await q.query<{ campaign_id: string; list: string; account: string }>(
    "SELECT campaign_id, list, account FROM ledger_campaign_members WHERE chain_id = $1 AND program_id = $2",
    key,
  );
  const listOf = (cid: string, list: string) =>
    members
      .filter((m) => m.campaign_id === cid && m.list === list)
      .map((m) => m.account)
      .sort(byText);
  return rows.map((r) => ({
    campaignId: r.campaign_id!,
    creator: r.creator!,
    status: r.status as LedgerCampaign["status"],
    budget: BigInt(r.budget!),
    available: BigInt(r.available!),
    outstanding: BigInt(r.outstanding!),
    metadata: r.metadata!,
    admins: listOf(r.campaign_id!, "admins"),
    settlementWhitelist: listOf(r.campaign_id!, "settlementWhitelist"),
    transferWhitelist: listOf(r.campaign_id!, "transferWhitelist"),
    minters: minters
      .filter((m) => m.campaign_id === r.campaign_id)
      .map((m) => ({ minter: m.minter, limit: BigInt(m.mint_limit), issued: BigInt(m.issued), active: m.active }))
      .sort((a, b) => byText(a.minter, b.minter)),
  }));
}

export async function hasCampaign(q: Queryable, chainId: string, programId: string, campaignId: string) {
  const rows = await q.query(
    "SELECT 1 FROM ledger_campaigns WHERE chain_id = $1 AND program_id = $2 AND campaign_id = $3",
    [chainId, programId, campaignId],
  );
  return rows.length === 1;
}

/** One page of holders with a positive balance, by address; the cursor is the previous page's last holder. */
async function holdersPage(q: Queryable, sql: string, params: unknown[], cursor: string | undefined, limit: number) {
  const rows = await q.query<{ holder: string; balance: string }>(sql, [
    ...params,
    cursor ? cursor.toLowerCase() : "",
    limit + 1,
  ]);
  const page = rows.slice(0, limit).map((r) => ({ holder: getAddress(r.holder), balance: r.balance }));
  return { holders: page, nextCursor: rows.length > limit ? page[page.length - 1]!.holder : null };
}

/** pSP holders of one campaign. */
export function pspHoldersPage(
  q: Queryable,
  chainId: string,
  programId: string,
  campaignId: string,
  cursor: string | undefined,
  limit: number,
) {
  return holdersPage(
    q,
    `SELECT holder, balance::text FROM ledger_psp_balances
     WHERE chain_id = $1 AND program_id = $2 AND campaign_id = $3 AND balance > 0 AND holder > $4
     ORDER BY holder LIMIT $5`,
    [chainId, programId, campaignId],
    cursor,
    limit,
  );
}

/** SP holders of a program. */
export function spHoldersPage(
  q: Queryable,
  chainId: string,
  programId: string,
  cursor: string | undefined,
  limit: number,
) {
  return holdersPage(
    q,
    `SELECT holder, balance::text FROM ledger_sp_balances
     WHERE chain_id = $1 AND program_id = $2 AND balance > 0 AND holder > $3 ORDER BY holder LIMIT $4`,
    [chainId, programId],
    cursor,
    limit,
  );
}

/** Every pSP balance of a program (tests, and the accounting check). */
export async function pspBalances(q: Queryable, chainId: string, programId: string) {
  const rows = await q.query<{ campaign_id: string; holder: string; balance: string }>(
    `SELECT campaign_id, holder, balance::text FROM ledger_psp_balances
     WHERE chain_id = $1 AND program_id = $2 AND balance <> 0`,
    [chainId, programId],
  );
  return rows.map((r) => ({ campaignId: r.campaign_id, holder: getAddress(r.holder), balance: BigInt(r.balance) }));
}

/** The mint, redeem and transfer allowlists, each sorted. */
export async function allowlistsOf(q: Queryable, chainId: string, programId: string) {
  const rows = await q.query<{ list: string; account: string }>(
    "SELECT list, account FROM ledger_allowlists WHERE chain_id = $1 AND program_id = $2",
    [chainId, programId],
  );
  const of = (list: string) =>
    rows
      .filter((r) => r.list === list)
      .map((r) => r.account)
      .sort(byText);
  return { mint: of("mint"), redeem: of("redeem"), transfer: of("transfer") };
}

/** Role holders per contract, contracts and roles in the order the chain first showed them. */
export async function rolesOf(q: Queryable, chainId: string, programId: string) {
  const rows = await q.query<{
    address: string;
    contract: string;
    role: string;
    account: string;
    held: boolean;
    first_block: string | number;
    first_log: number;
  }>(
    `SELECT address, contract, role, account, held, first_block, first_log FROM ledger_role_holders
     WHERE chain_id = $1 AND program_id = $2 ORDER BY first_block, first_log`,
    [chainId, programId],
  );
  const contracts = new Map<string, { contract: string; address: string; roles: Map<string, string[]> }>();
  for (const r of rows) {
    const c =
      contracts.get(r.address) ??
      contracts
        .set(r.address, { contract: r.contract, address: getAddress(r.address), roles: new Map() })
        .get(r.address)!;
    const holders = c.roles.get(r.role) ?? c.roles.set(r.role, []).get(r.role)!;
    if (r.held) holders.push(r.account);
  }
  return [...contracts.values()].map((c) => ({
    contract: c.contract,
    address: c.address,
    roles: [...c.roles.entries()]
      .map(([role, holders]) => ({ role, holders: holders.sort(byText) }))
      .filter((r) => r.holders.length > 0),
  }));
}
