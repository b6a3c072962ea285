import { createContext, useContext, useEffect, useState } from "react";
import type { PointsClient, ResponseData } from "@points/sdk";
import { describeError, type Described } from "../api/errors";

export type ProgramView = ResponseData<"getFactory">;

/** What every dashboard view shares: the SDK client bound to the program, and the signer's address. */
export interface Dash {
  client: PointsClient;
  program: ProgramView;
  /** The connected wallet: the `from` of every write. */
  from: string | null;
  explorerUrl: string | null;
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
