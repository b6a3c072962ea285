import type { ContractName } from "@points/schema";

/** Contract names in words; the on-chain (API) name stays one click away. */
export const CONTRACT_WORDS: Record<ContractName, string> = {
  factory: "Factory",
  points: "Points token",
  collateralVault: "Collateral vault",
  pspVault: "Campaign vault",
  oracle: "Price oracle",
};

/** "ISSUING_ADMIN_ROLE" -> "Issuing admin"; DEFAULT_ADMIN_ROLE reads "Admin". */
export function roleWords(role: string): string {
  if (role === "DEFAULT_ADMIN_ROLE") return "Admin";
  const w = role
    .replace(/_ROLE$/, "")
    .toLowerCase()
    .replace(/_/g, " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/**
 * The roles an account holds, one line per contract in words, in the order found:
 * "Factory: Admin, Manager, Pauser".
 */
export function heldRoleLines(held: readonly { contract: ContractName; role: string }[]): string[] {
  const by = new Map<ContractName, string[]>();
  for (const r of held) by.set(r.contract, [...(by.get(r.contract) ?? []), roleWords(r.role)]);
  return [...by].map(([c, rs]) => `${CONTRACT_WORDS[c]}: ${rs.join(", ")}`);
}
