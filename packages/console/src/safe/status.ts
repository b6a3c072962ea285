import type { SafeProposal } from "@points/schema";

/** A proposal's status in words (docs/architecture.md#safe-multisig). */
export const STATUS_WORDS: Record<SafeProposal["status"], string> = {
  pending: "Waiting for signatures",
  executable: "Ready to execute",
  executed: "Executed",
  replaced: "Replaced",
};

/** What the status means for the person looking at it. */
export const STATUS_SENTENCES: Record<SafeProposal["status"], string> = {
  pending: "It needs more owners' signatures, or an earlier Safe transaction must run first.",
  executable: "Enough owners signed: any account can execute it now.",
  executed: "The Safe ran it.",
  replaced: "Another Safe transaction used its nonce, so it can no longer run. Propose it again if it is still wanted.",
};

export const STATUS_BADGE: Record<SafeProposal["status"], string> = {
  pending: "badge accent",
  executable: "badge ok",
  executed: "badge",
  replaced: "badge bad",
};

/** Listed first: what can be done now, then what waits, then history. */
export const STATUS_ORDER: SafeProposal["status"][] = ["executable", "pending", "executed", "replaced"];
