import type { TxJob } from "../../components/TxDialog";
import type { Values } from "../formValues";

/**
 * What stops an action before anything is built or approved (no dead end that costs gas): a
 * sentence, and for a missing allowlist entry the transaction that adds it, offered only to a
 * holder of the role, as its own confirmed access change (never chained to the action).
 */
export interface Blocker {
  message: string;
  fix?: { label: string; job: TxJob };
}

/** Runs before the action is built; null lets it go ahead. */
export type Check = (values: Values, from: string) => Promise<Blocker | null>;

/** The confirmation of an allowlist change: it shows the account and what it will be allowed to do. */
export const accessChange = (list: string, account: string, build: TxJob["build"]): Blocker["fix"] => ({
  label: `Add ${account} to the ${list} allowlist`,
  job: {
    title: `Add ${account} to the ${list} allowlist`,
    destructive: `Access change: ${account} will be on the ${list} allowlist. This is its own transaction; the action you asked for is not sent with it.`,
    build,
  },
});
