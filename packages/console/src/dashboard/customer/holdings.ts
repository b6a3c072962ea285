import type { PointsClient } from "@points/sdk";
import { verifiedLabel } from "../campaignLabel";

/**
 * The cursor that starts a holder list at `address` itself: the list is ordered by lowercase
 * address and a page starts after its cursor, so the address just below it opens the page.
 */
export function cursorBefore(address: string): string | null {
  const n = BigInt(address);
  if (n === 0n) return null;
  return `0x${(n - 1n).toString(16).padStart(40, "0")}`;
}

/** One holder's entry of a holder list (balance "0" when the list does not hold it). */
async function balanceIn(
  list: (opts: {
    cursor?: string;
    limit: number;
  }) => Promise<{ blockNumber: number | null; holders: { holder: string; balance: string }[] }>,
  address: string,
): Promise<{ balance: string; blockNumber: number | null }> {
  const cursor = cursorBefore(address);
  const { holders, blockNumber } = await list({ ...(cursor === null ? {} : { cursor }), limit: 1 });
  const balance = holders[0]?.holder.toLowerCase() === address.toLowerCase() ? holders[0].balance : "0";
  return { balance, blockNumber };
}

export interface Holdings {
  blockNumber: number | null;
  sp: string;
  lists: { mint: boolean; redeem: boolean; transfer: boolean };
  campaigns: {
    campaignId: string;
    label?: string;
    psp: string;
    settlement: boolean;
    transfer: boolean;
  }[];
}

/**
 * A customer's SP balance, program allowlists and pSP per campaign, all from the ledger. Each
 * read names its block; the answer keeps the oldest, so nothing claims to be newer than it is.
 */
export async function holdingsOf(client: PointsClient, address: string): Promise<Holdings> {
  const lower = address.toLowerCase();
  const has = (list: string[]) => list.some((a) => a.toLowerCase() === lower);
  const [sp, lists, campaigns] = await Promise.all([
    balanceIn((o) => client.ledger.spHolders(o), address),
    client.ledger.allowlists(),
    client.ledger.campaigns(),
  ]);
  const psp = await Promise.all(
    campaigns.campaigns.map((c) => balanceIn((o) => client.ledger.campaignBalances(c.campaignId, o), address)),
  );
  const blocks = [sp.blockNumber, lists.blockNumber, campaigns.blockNumber, ...psp.map((p) => p.blockNumber)];
  return {
    blockNumber: blocks.includes(null) ? null : Math.min(...(blocks as number[])),
    sp: sp.balance,
    lists: { mint: has(lists.mint), redeem: has(lists.redeem), transfer: has(lists.transfer) },
    campaigns: campaigns.campaigns.map((c, i) => ({
      campaignId: c.campaignId,
      label: verifiedLabel(c.campaignId, c.metadata),
      psp: psp[i]!.balance,
      settlement: has(c.settlementWhitelist),
      transfer: has(c.transferWhitelist),
    })),
  };
}
