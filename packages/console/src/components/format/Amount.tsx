import { formatAmount } from "./amount";
import { UserText } from "./UserText";

/** An amount in token units with its symbol; the raw smallest-unit value on hover and in a copy. */
export function Amount({ value, decimals, symbol }: { value: string | bigint; decimals: number; symbol: string }) {
  const raw = value.toString();
  return (
    <span className="amount" title={`${raw} in smallest units (${decimals} decimals)`} data-raw={raw}>
      {formatAmount(raw, decimals)} <UserText text={symbol} />
    </span>
  );
}
