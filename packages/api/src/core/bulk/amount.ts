import { MAX_UINT256 } from "@points/schema";

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * An amount in token units ("1.5") as smallest units, or why it is refused
 * (docs/rules.md#bulk-requests): a "." decimal point and at most `decimals` digits after it;
 * no sign, exponent, thousands separator, leading zero or bare point.
 */
export function parseTokenAmount(text: string, decimals: number): bigint | string {
  const v = text.trim();
  if (v === "") return "is empty";
  const m = DECIMAL.exec(v);
  if (!m) {
    if (v.startsWith("-")) return "must not be negative";
    if (/[eE]/.test(v)) return "must not use an exponent: write the digits";
    if (/[,_' ]/.test(v)) return "must not have thousands separators";
    return 'must be a decimal number of token units such as 12 or 1.5 ("." as decimal point)';
  }
  const [, whole, fraction = ""] = m;
  if (fraction.length > decimals) return `has ${fraction.length} decimals; the token has ${decimals}`;
  const units = BigInt(whole + fraction.padEnd(decimals, "0"));
  if (units === 0n) return "must be greater than 0";
  if (units > MAX_UINT256) return "must fit in uint256";
  return units;
}
