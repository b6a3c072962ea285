import type { PointsClient, ResponseData } from "@points/sdk";

export type LedgerEvent = ResponseData<"ledgerCampaignLedger">["events"][number];

/** A ledger list read to its end: every page, oldest event first, and the block it is at. */
export interface LedgerEvents {
  blockNumber: number | null;
  events: LedgerEvent[];
}

type Page = { blockNumber: number | null; events: LedgerEvent[]; nextCursor: string | null };

/** Pages are newest first; at most `maxPages` of 500 (a dashboard picture, not an export). */
async function readAll(next: (cursor?: string) => Promise<Page>, maxPages = 20): Promise<LedgerEvents> {
  const events: LedgerEvent[] = [];
  let cursor: string | undefined;
  let blockNumber: number | null = null;
  for (let i = 0; i < maxPages; i++) {
    const page = await next(cursor);
    if (i === 0) blockNumber = page.blockNumber;
    events.push(...page.events);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return { blockNumber, events: events.reverse() };
}

/** Every event of a campaign (the campaign ledger route). */
export const campaignEvents = (client: PointsClient, campaignId: string) =>
  readAll((cursor) => client.ledger.campaignLedger(campaignId, { limit: 500, cursor }));

/** Every event naming an address (the holder history route): the zero address gives every SP mint and burn. */
export const addressEvents = (client: PointsClient, address: string) =>
  readAll((cursor) => client.ledger.holderHistory(address, { limit: 500, cursor }));
