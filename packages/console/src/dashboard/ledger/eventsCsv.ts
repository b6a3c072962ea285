import { csvText, plainUnits } from "../../components/csvFile";
import { SP_DECIMALS } from "../units";
import { eventLine } from "./eventWords";

/** What the CSV needs of a ledger event. */
export interface CsvEvent {
  time: string;
  event: string | null;
  campaignId: string | null;
  args: Record<string, unknown>;
  txHash: string;
}

/**
 * Events as CSV in points, oldest first (pass them newest first, as the ledger pages them): the
 * event in words and by its on-chain name, the campaign's label (empty when unverified), holder,
 * minter, the amount in token units with every decimal and its unit, and the transaction.
 */
export function eventsCsv(newestFirst: CsvEvent[], names: Record<string, string>, symbol: string | null): string {
  const rows = [...newestFirst].reverse().map((e) => {
    const line = eventLine(e.event, e.args, symbol);
    return [
      e.time,
      line.words,
      e.event ?? "",
      e.campaignId ? (names[e.campaignId] ?? "") : "",
      e.campaignId ?? "",
      line.holder ?? "",
      line.minter ?? "",
      line.amount === null ? "" : plainUnits(line.amount, SP_DECIMALS),
      line.amount === null ? "" : (line.symbol ?? "SP"),
      e.txHash,
    ];
  });
  const header = ["time", "event", "onChainEvent", "campaign", "campaignId", "holder", "minter", "amount", "unit"];
  return csvText([...header, "txHash"], rows);
}
