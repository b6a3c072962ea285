import type { PointsClient } from "@points/sdk";
import { csvText, plainUnits } from "../components/csvFile";
import { SP_DECIMALS } from "./units";
import { PENDING_SYMBOL } from "./tokenSymbol";

/** A campaign as the ledger lists it. */
export type LedgerCampaign = Awaited<ReturnType<PointsClient["ledger"]["campaigns"]>>["campaigns"][number];

/** One delegated minter of one campaign, for the program-wide minter list. */
export interface MinterRow {
  campaignId: string;
  minter: string;
  limit: string;
  issued: string;
  active: boolean;
}

/** Every delegated minter of every campaign, by campaign (ledger order) then minter. */
export const minterRows = (campaigns: LedgerCampaign[]): MinterRow[] =>
  campaigns.flatMap((c) => c.minters.map((m) => ({ campaignId: c.campaignId, ...m })));

/** A minter's status in words: inactive, at its limit, or active. */
export const minterStatus = (m: Pick<MinterRow, "limit" | "issued" | "active">): string =>
  !m.active ? "Inactive" : BigInt(m.issued) >= BigInt(m.limit) ? "Limit reached" : "Active";

const units = (v: string) => plainUnits(v, SP_DECIMALS);

/** The campaign list as CSV, amounts in points; a campaign without a verified label has an empty label. */
export function campaignsCsv(campaigns: LedgerCampaign[], names: Record<string, string>, symbol: string | null) {
  const sp = symbol ?? "SP";
  return csvText(
    ["campaign", "campaignId", `budget (${sp})`, `available (${sp})`, `outstanding (${PENDING_SYMBOL})`, "status"],
    campaigns.map((c) => [
      names[c.campaignId] ?? "",
      c.campaignId,
      units(c.budget),
      units(c.available),
      units(c.outstanding),
      c.status,
    ]),
  );
}

/** The program's delegated minters as CSV, amounts in pSP points. */
export function mintersCsv(rows: MinterRow[], names: Record<string, string>) {
  return csvText(
    ["campaign", "campaignId", "minter", `limit (${PENDING_SYMBOL})`, `issued (${PENDING_SYMBOL})`, "status"],
    rows.map((m) => [
      names[m.campaignId] ?? "",
      m.campaignId,
      m.minter,
      units(m.limit),
      units(m.issued),
      minterStatus(m),
    ]),
  );
}
