/** The Factory's bounds (FactoryBase.sol MAX_FEE_BPS, MAX_REDEEM_DELAY), as the API's schema checks them. */
import { FACTORY_MAX_FEE_BPS as MAX_FEE_BPS, FACTORY_MAX_REDEEM_DELAY as MAX_REDEEM_DELAY } from "@points/schema";

export { MAX_FEE_BPS, MAX_REDEEM_DELAY };
export { durationWords } from "../../components/format/duration";

/** Basis points as a percentage's digits, exactly: 25 "0.25", 100 "1", 1000 "10". */
export function percentText(bps: number): string {
  const cents = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${Math.floor(bps / 100)}${cents ? `.${cents}` : ""}`;
}

/** Basis points in words: 25 "0.25% (25 bps)", 0 "none (0 bps)". */
export function feeWords(bps: number): string {
  if (bps === 0) return "none (0 bps)";
  return `${percentText(bps)}% (${bps} bp${bps === 1 ? "" : "s"})`;
}

/** A fee typed in percent ("0.25", "1", "10") as basis points; at most two decimals. */
export function parseFeePercent(raw: string): { bps?: number; error?: string } {
  const v = raw.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(v);
  if (!m) return { error: "Must be a percentage with at most two decimals, like 0.25 or 1." };
  const bps = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bps > MAX_FEE_BPS ? { error: "Must be at most 10% (the Factory's highest fee)." } : { bps };
}

export const DURATION_UNITS = [
  ["minutes", 60],
  ["hours", 3_600],
  ["days", 86_400],
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number][0];

/** A delay typed as a whole number of minutes, hours or days, as seconds; 0 to 30 days. */
export function parseDuration(raw: string, unit: DurationUnit): { seconds?: number; error?: string } {
  const v = raw.trim();
  if (!/^\d{1,7}$/.test(v)) return { error: "Must be a whole number, like 0, 2 or 30." };
  const seconds = Number(v) * DURATION_UNITS.find(([u]) => u === unit)![1];
  return seconds > MAX_REDEEM_DELAY ? { error: "Must be at most 30 days (the Factory's longest delay)." } : { seconds };
}
