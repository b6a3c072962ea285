import { getAddress } from "ethers";
import type { Queryable } from "../db/db.js";

export interface CustomerFilter {
  /** `0x` and up to 40 hex digits: only addresses starting with it. */
  prefix?: string;
  /** Only holders whose SP balance is at least this (smallest units). */
  minBalance?: string;
}

export interface CustomerRow {
  holder: string;
  sp: string;
  psp: string;
  issued: string;
  settled: string;
  clawedBack: string;
}

const TOTALS = { PSPMinted: "issued", PSPSettled: "settled", PSPExpired: "clawedBack" } as const;

/**
 * One page of a program's customers, by address: holders of SP or pSP now and every address
 * ever issued pSP, leaving out `exclude` (the program's own contracts, which hold SP as vaults).
 * Run on the snapshot whose ledger block is `at`, so balances and totals agree with each other.
 */
export async function customersPage(
  q: Queryable,
  chainId: string,
  programId: string,
  at: number | null,
  exclude: string[],
  filter: CustomerFilter,
  cursor: string | undefined,
  limit: number,
): Promise<{ customers: CustomerRow[]; nextCursor: string | null }> {
  if (at === null) return { customers: [], nextCursor: null };
  const key = [chainId, programId];
  const rows = await q.query<{ holder: string; sp: string }>(
    `WITH people AS (
       SELECT holder FROM ledger_sp_balances WHERE chain_id = $1 AND program_id = $2 AND balance > 0
       UNION
       SELECT holder FROM ledger_psp_balances WHERE chain_id = $1 AND program_id = $2 AND balance > 0
       UNION
       SELECT lower(args->>'to') FROM ledger_events
       WHERE chain_id = $1 AND program_id = $2 AND contract = 'pspVault' AND event = 'PSPMinted' AND block_number <= $3
     )
     SELECT p.holder, COALESCE(s.balance, 0)::text AS sp
     FROM people p
     LEFT JOIN ledger_sp_balances s ON s.chain_id = $1 AND s.program_id = $2 AND s.holder = p.holder
     WHERE p.holder > $4 AND p.holder LIKE $5 AND COALESCE(s.balance, 0) >= $6::numeric
       AND NOT (p.holder = ANY($7::text[]))
     ORDER BY p.holder LIMIT $8`,
    [
      ...key,
      at,
      cursor ? cursor.toLowerCase() : "",
      `${(filter.prefix ?? "0x").toLowerCase()}%`,
      filter.minBalance ?? "0",
      exclude.map((a) => a.toLowerCase()),
      limit + 1,
    ],
  );
  const page = rows.slice(0, limit);
  const holders = page.map((r) => r.holder);
  const psp = new Map<string, string>();
  const totals = new Map<string, Record<(typeof TOTALS)[keyof typeof TOTALS], bigint>>();
  if (holders.length > 0) {
    const pspRows = await q.query<{ holder: string; balance: string }>(
      `SELECT holder, SUM(balance)::text AS balance FROM ledger_psp_balances
       WHERE chain_id = $1 AND program_id = $2 AND holder = ANY($3::text[]) GROUP BY holder`,
      [...key, holders],
    );
    for (const r of pspRows) psp.set(r.holder, r.balance);
    // `accounts` holds every address among an event's args (lower case), so the GIN index
    // narrows the scan to these holders' events; the holder's own arg is picked below.
    const sums = await q.query<{ event: keyof typeof TOTALS; holder: string; amount: string }>(
      `SELECT event, lower(CASE WHEN event = 'PSPMinted' THEN args->>'to' ELSE args->>'holder' END) AS holder,
              SUM((args->>'amount')::numeric)::text AS amount
       FROM ledger_events
       WHERE chain_id = $1 AND program_id = $2 AND contract = 'pspVault' AND block_number <= $3
         AND event IN ('PSPMinted', 'PSPSettled', 'PSPExpired') AND accounts && $4::text[]
       GROUP BY 1, 2`,
      [...key, at, holders],
    );
    for (const s of sums) {
      const t = totals.get(s.holder) ?? { issued: 0n, settled: 0n, clawedBack: 0n };
      t[TOTALS[s.event]] += BigInt(s.amount);
      totals.set(s.holder, t);
    }
  }
  const customers = page.map((r) => {
    const t = totals.get(r.holder);
    return {
      holder: getAddress(r.holder),
      sp: r.sp,
      psp: psp.get(r.holder) ?? "0",
      issued: (t?.issued ?? 0n).toString(),
      settled: (t?.settled ?? 0n).toString(),
      clawedBack: (t?.clawedBack ?? 0n).toString(),
    };
  });
  return { customers, nextCursor: rows.length > limit ? customers[customers.length - 1]!.holder : null };
}
