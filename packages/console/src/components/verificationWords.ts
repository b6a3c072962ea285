/** The contracts whose source is not verified, worded once for them all (src/components/Verification.tsx). */

// The states the contract's own line words (a link, pending, failed); any other is "not verified".
const SHOWN = ["verified", "pending", "failed"];

interface Row {
  contract: string;
  status: string;
  reason?: string | null;
}
interface View {
  message?: string | null;
  contracts: readonly Row[];
}

/** Why a contract's source is not verified (nor pending, nor failed), or null when it is any of those. */
export function notVerifiedReason(view: View, contract: string): string | null {
  const rows = view.contracts.filter((c) => c.contract === contract);
  if (rows.length === 0) return view.message ?? "not queued";
  const skipped = rows.filter((r) => !SHOWN.includes(r.status));
  return skipped.length === rows.length ? (skipped[0]!.reason ?? view.message ?? "skipped") : null;
}

/**
 * One line per reason for the contracts not verified, in their order:
 * "Source not verified: Factory, Points token (not queued)".
 */
export function notVerifiedSummary(view: View, contracts: readonly [contract: string, words: string][]): string[] {
  const by = new Map<string, string[]>();
  for (const [c, words] of contracts) {
    const reason = notVerifiedReason(view, c);
    if (reason !== null) by.set(reason, [...(by.get(reason) ?? []), words]);
  }
  return [...by].map(([reason, names]) => `Source not verified: ${names.join(", ")} (${reason})`);
}
