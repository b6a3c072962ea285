import { id as keccakOfText } from "ethers";

/**
 * Creation metadata carrying the campaign's label, as the ledger indexes it: {"label": "spring"}
 * (with the operator's own note, if any, beside it).
 */
export const labelMetadata = (label: string, note?: string) => JSON.stringify(note ? { label, note } : { label });

/**
 * The campaign's name: the label in its creation metadata, only when keccak256(label) is the
 * campaign id (so a name is unique per vault and nobody can borrow another campaign's);
 * undefined otherwise, and the console shows the short id marked unverified.
 */
export function verifiedLabel(campaignId: string, metadata: string | undefined): string | undefined {
  if (!metadata) return undefined;
  try {
    const label = (JSON.parse(metadata) as { label?: unknown }).label;
    return typeof label === "string" && keccakOfText(label) === campaignId.toLowerCase() ? label : undefined;
  } catch {
    return undefined;
  }
}
