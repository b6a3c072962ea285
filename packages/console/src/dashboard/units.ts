import { formatUnits, parseUnits } from "ethers";

/** Smallest units to a readable decimal, without trailing zeros. */
export function fmt(value: string | bigint, decimals: number): string {
  const s = formatUnits(value, decimals);
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}

/** A decimal typed by a person to smallest units; null when it is not a number. */
export function toUnits(value: string, decimals: number): string | null {
  const v = value.trim();
  if (!/^\d+(\.\d+)?$/.test(v)) return null;
  try {
    return parseUnits(v, decimals).toString();
  } catch {
    return null;
  }
}

export const SP_DECIMALS = 18;
