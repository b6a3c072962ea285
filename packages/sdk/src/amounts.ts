import { amountKeys } from "./routeTable.js";
import type { MapFields } from "./types.js";

/** A result field that holds a uint256 as decimal text (by name, generated from the schema). */
export type AmountKey = (typeof amountKeys)[number];

/** A result with every amount field (see AmountKey) as a bigint instead of decimal text. */
export type WithBigints<T> = MapFields<T, AmountKey, bigint>;

const AMOUNTS = new Set<string>(amountKeys);

/**
 * A copy of a read's result with its amounts as bigint: results carry them as exact decimal
 * text (JSON has no bigint); this offers both. `withBigints(await points.vault.getCampaign(id)).budget`.
 */
export function withBigints<T>(result: T): WithBigints<T> {
  const convert = (value: unknown, amount: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => convert(v, amount));
    if (typeof value === "string") return amount ? BigInt(value) : value;
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, AMOUNTS.has(k))]));
    }
    return value;
  };
  return convert(result, false) as WithBigints<T>;
}
