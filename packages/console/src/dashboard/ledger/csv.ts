import type { ProgramView } from "../context";

/**
 * Same-origin CSV URLs of the ledger's file routes: a plain download link sends the session
 * cookie, so no key reaches the browser. The program is named by its id.
 */
export const holderCsvHref = (program: ProgramView, address: string) =>
  `/api/v1/ledger/holders/${address}/history.csv?program=${encodeURIComponent(program.id)}`;

export const campaignCsvHref = (program: ProgramView, campaignId: string) =>
  `/api/v1/ledger/campaigns/${encodeURIComponent(campaignId)}/ledger.csv?program=${encodeURIComponent(program.id)}`;
