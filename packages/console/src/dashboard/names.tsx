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

/** A name in words, with the on-chain name behind a disclosure. */
export function OnChainName({ words, onChain }: { words: string; onChain: string }) {
  if (words === onChain) return <>{words}</>;
  return (
    <span className="onchain-name">
      {words}
      <details>
        <summary>
          <span className="sr-only">On-chain name of {words}</span>
          {/* Plain text, not an icon glyph: every font has it. */}
          <span aria-hidden="true" className="onchain-toggle">
            id
          </span>
        </summary>
        <code>{onChain}</code>
      </details>
    </span>
  );
}
