import { createContext, useContext, useEffect, useState } from "react";
import type { PointsClient } from "@points/sdk";
import { describeError, type Described } from "../api/errors";
import type { ProgramView } from "../api/programView";
import type { Acting, RoleOn, RoleSafe } from "../safe/roleSafes";

// Defined in api/ (below safe/ and dashboard/, which both use it): re-exported for the views.
export type { ProgramView } from "../api/programView";

/** What every dashboard view shares: the SDK client bound to the program, and the signer's address. */
export interface Dash {
  client: PointsClient;
  program: ProgramView;
  /** The acting account of a write that names no role: the connected wallet, or the admin Safe when acting as it. */
  from: string | null;
  /**
   * Who runs a write that needs one of `needs` (in order of preference): while acting as Safes,
   * the wallet's Safe that holds it (the write becomes its proposal), else the wallet itself.
   */
  acting(needs: RoleOn[]): Acting;
  /** The connected wallet (signs, and as a Safe owner signs proposals). */
  wallet: string | null;
  /** The Safe that administers the program (DEFAULT_ADMIN_ROLE on the four handover contracts), or null. */
  safe: RoleSafe | null;
  /** Every Safe that holds a role on the program's contracts (read from the ledger and the chain). */
  safes: RoleSafe[];
  /** Whether writes are proposed to the wallet's Safes instead of sent by the wallet. */
  actAsSafe: boolean;
  setActAsSafe(v: boolean): void;
  explorerUrl: string | null;
  /**
   * The program token's own symbol, read once for the dashboard (src/dashboard/useTokenSymbol.ts);
   * null until known. Read it through useTokenSymbol().
   */
  tokenSymbol: string | null;
  /** Bumped after every mined transaction so views read again. */
  version: number;
  bump(): void;
}

export const DashContext = createContext<Dash | null>(null);

export function useDash(): Dash {
  const d = useContext(DashContext);
  if (!d) throw new Error("useDash outside the dashboard");
  return d;
}

/** Loads `f` when its deps or the dashboard version change; keeps the last value while reloading. */
export function useLoad<T>(f: () => Promise<T>, deps: unknown[]) {
  const { version } = useDash();
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<Described | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    setLoading(true);
    f().then(
      (v) => live && (setValue(v), setError(null), setLoading(false)),
      (e) => live && (setError(describeError(e)), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [...deps, version]);
  return { value, error, loading };
}
