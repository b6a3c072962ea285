import { parseUnits } from "ethers";
import { formatAmount } from "../components/format/amount";

/** Smallest units to a readable decimal: grouped thousands, every decimal, no trailing zeros. */
export const fmt = formatAmount;

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
