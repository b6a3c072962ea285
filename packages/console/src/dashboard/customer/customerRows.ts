import type { PointsClient } from "@points/sdk";
import { csvText, plainUnits } from "../../components/csvFile";
import { SP_DECIMALS, toUnits } from "../units";
import { PENDING_SYMBOL } from "../tokenSymbol";

/** Rows per page of the customer list (the ledger route pages by address). */
export const CUSTOMERS_PER_PAGE = 25;

/** What the list is narrowed to, as the ledger route takes it (minBalance in smallest units). */
export interface CustomerFilter {
  prefix?: string;
  minBalance?: string;
}

/** The filter typed by a person, checked: an address prefix and a minimum balance in points. */
export function readFilter(prefix: string, min: string): { filter: CustomerFilter; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const filter: CustomerFilter = {};
  const p = prefix.trim();
  if (p !== "") {
    const hex = p.toLowerCase().startsWith("0x") ? p.slice(2) : p;
    if (!/^[0-9a-fA-F]{0,40}$/.test(hex))
      errors.prefix = "An address starts with 0x and up to 40 hex digits (0-9, a-f).";
    else filter.prefix = `0x${hex}`;
  }
  if (min.trim() !== "") {
    const units = toUnits(min, SP_DECIMALS);
    if (units === null) errors.min = "Type a number of points, like 12 or 12.5.";
    else filter.minBalance = units;
  }
  return { filter, errors };
}

export type Customer = Awaited<ReturnType<PointsClient["ledger"]["customers"]>>["customers"][number];

/** The CSV of every customer the filter keeps, amounts in points (not smallest units). */
export function customersCsv(customers: Customer[], symbol: string | null): string {
  const sp = symbol ?? "SP";
  const header = ["address", sp, PENDING_SYMBOL, "issued", "settled", "clawed back"];
  const units = (v: string) => plainUnits(v, SP_DECIMALS);
  const rows = customers.map((c) => [
    c.holder,
    units(c.sp),
    units(c.psp),
    units(c.issued),
    units(c.settled),
    units(c.clawedBack),
  ]);
  return csvText(header, rows);
}
