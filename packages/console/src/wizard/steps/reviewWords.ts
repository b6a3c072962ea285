/** The deploy review's values in words: never "chain (id )" or "()" for a value not chosen yet. */

/** "Hardhat (id 31337)"; "chain id 31337" without a known name; "unknown chain" without an id. */
export function chainWords(name: string | undefined, chainId: number | null | undefined): string {
  if (chainId == null) return name ?? "unknown chain";
  return name ? `${name} (id ${chainId})` : `chain id ${chainId}`;
}

/** A value with its detail in parentheses when both are known ("Acme Points (ACME)"), else what is known, else "not set". */
export function withDetail(main: string | undefined, detail: string | undefined): string {
  if (main && detail) return `${main} (${detail})`;
  return main || detail || "not set";
}
