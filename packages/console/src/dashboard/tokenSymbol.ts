import { formatAmount } from "../components/format/amount";

/**
 * The program's points token by its own symbol ("ACME", "DEMO"), never a fixed "SP". Pending
 * points keep the name the interface spec gives them, "pSP", whatever the token's symbol.
 */
export const PENDING_SYMBOL = "pSP";

/** The symbol the registry's public metadata gives the program's token, or null when it names none. */
export function registrySymbol(metadata: Record<string, unknown>): string | null {
  const token = metadata.token as { symbol?: unknown } | undefined;
  return typeof token?.symbol === "string" && token.symbol !== "" ? token.symbol : null;
}

/**
 * An amount with its symbol ("1,000 ACME"); while the symbol is not known yet (null) the bare
 * amount, rather than a symbol that may be another token's.
 */
export function tokenAmount(value: string | bigint, decimals: number, symbol: string | null): string {
  const n = formatAmount(value, decimals);
  return symbol === null ? n : `${n} ${symbol}`;
}

/** The token named in a sentence ("Mint ACME"): its symbol, or "points" while that is not known. */
export const tokenWord = (symbol: string | null): string => symbol ?? "points";
