import { formatAmount } from "./amount";
import { UserText } from "./UserText";

/**
 * An amount in token units with its symbol (none while the symbol is not known: null); the raw
 * smallest-unit value on hover and in a copy.
 */
export function Amount({
  value,
  decimals,
  symbol,
}: {
  value: string | bigint;
  decimals: number;
  symbol: string | null;
}) {
  const raw = value.toString();
  return (
    <span className="amount" title={`${raw} in smallest units (${decimals} decimals)`} data-raw={raw}>
      {formatAmount(raw, decimals)}
      {symbol !== null && (
        <>
          {" "}
          <UserText text={symbol} />
        </>
      )}
    </span>
  );
}
