import { z } from "zod";
import { Address, CampaignId } from "../../primitives.js";
import type { RouteDef } from "../../route.js";
import { LedgerQuery } from "./common.js";

/**
 * Routes that answer a file instead of the JSON envelope: the ledger's CSV exports. They are
 * kept out of the route table (whose answers are enveloped JSON) and served, documented and
 * called by their own code; their errors are the envelope as everywhere.
 */
export interface FileRouteDef extends RouteDef {
  /** The success answer's media type. */
  contentType: "text/csv";
  /** What the file holds, for the OpenAPI document. */
  description: string;
}

const COLUMNS =
  "Columns: blockNumber, logIndex, time (ISO 8601), txHash, contract, address, event, campaignId, " +
  "from, to, amount (uint256 decimal text), metadata, args (the event's arguments as JSON). Oldest first, " +
  "quoted per RFC 4180; a cell starting with =, +, -, @, tab or CR is prefixed with ' so spreadsheets do not run it. " +
  "The Ledger-Block header names the block the file is consistent with (empty until the indexer reached the program).";

export const ledgerHolderHistoryCsv: FileRouteDef = {
  method: "get",
  path: "/api/v1/ledger/holders/:address/history.csv",
  summary: "A holder's whole history as CSV (streamed)",
  tag: "ledger",
  auth: "key",
  params: z.object({ address: Address }),
  query: LedgerQuery,
  response: z.string(),
  contentType: "text/csv",
  description: `Every event of the program touching the address. ${COLUMNS}`,
};

export const ledgerCampaignLedgerCsv: FileRouteDef = {
  method: "get",
  path: "/api/v1/ledger/campaigns/:campaignId/ledger.csv",
  summary: "A campaign's whole ledger as CSV (streamed)",
  tag: "ledger",
  auth: "key",
  params: z.object({ campaignId: CampaignId }),
  query: LedgerQuery,
  response: z.string(),
  contentType: "text/csv",
  description: `Every event of the campaign. ${COLUMNS}`,
};

/** The file routes by name (not part of `routes`). */
export const fileRoutes = { ledgerHolderHistoryCsv, ledgerCampaignLedgerCsv } as const;
