/**
 * Which pSP operations the chain would accept on a campaign, so the page offers only those
 * (docs/rules.md, Campaigns): issuing needs an Active campaign; funding and closing need one that
 * is not Closed; settle, expire and transfer work in every status, so holders are never trapped;
 * and every one of them stops while the Campaign vault is paused (`whenNotPaused`). A settlement
 * pays SP out of the vault, so it also stops while the Points token is paused (every SP movement
 * does); funding and closing move SP only in part (unallocated SP, an empty budget), so their
 * forms check that when sent (src/dashboard/preflight/programChecks.ts).
 */
export type CampaignAction = "issue" | "settle" | "expire" | "transfer" | "fund" | "close";

export type CampaignStatus = "Active" | "Paused" | "Closed";

const POINTS_PAUSED =
  "The Points token is paused: no SP moves, so nothing can be settled until a PAUSER_ROLE holder unpauses it on the Roles page.";
const VAULT_PAUSED =
  "The Campaign vault is paused: nothing moves until a PAUSER_ROLE holder unpauses it on the Roles page.";

/** Why each operation the chain would refuse is not offered; an operation not listed is offered. */
export function unavailableActions(
  status: CampaignStatus,
  vaultPaused: boolean | null | undefined,
  pointsPaused?: boolean | null,
): Partial<Record<CampaignAction, string>> {
  const out: Partial<Record<CampaignAction, string>> = {};
  if (pointsPaused) out.settle = POINTS_PAUSED;
  if (status === "Paused") out.issue = "The campaign is paused: resume it to issue pSP.";
  if (status === "Closed") {
    out.issue = "The campaign is closed for good: no more pSP can be issued.";
    out.fund = "The campaign is closed for good: its budget cannot be topped up.";
    out.close = "The campaign is already closed.";
  }
  if (vaultPaused) {
    for (const a of ["issue", "settle", "expire", "transfer", "fund", "close"] as const) out[a] = VAULT_PAUSED;
  }
  return out;
}
