import { formatUnits } from "ethers";

/**
 * Smallest units as a person reads them: every decimal kept (no rounding, a confirmation shows
 * exactly what is signed), trailing zeros dropped, thousands grouped with commas, "." the only
 * decimal separator: 1250500000 at 6 decimals is "1,250.5".
 */
export function formatAmount(value: string | bigint, decimals: number): string {
  const text = formatUnits(value, decimals);
  const dot = text.indexOf(".");
  const whole = dot < 0 ? text : text.slice(0, dot);
  const frac = dot < 0 ? "" : text.slice(dot + 1);
  const negative = whole.startsWith("-");
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimalsShown = frac.replace(/0+$/, "");
  return `${negative ? "-" : ""}${grouped}${decimalsShown ? `.${decimalsShown}` : ""}`;
}
