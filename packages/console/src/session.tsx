import { createContext, useContext } from "react";
import type { Me, Wizard } from "./api/console";

/** The signed-in user, their server-side wizard progress and the ways to change it. */
export interface Session {
  me: Me;
  /** PUT /console/v1/wizard with a partial patch; the saved wizard replaces the local one. */
  save(patch: Partial<Wizard>): Promise<Wizard>;
  signOut(): Promise<void>;
  /** POST /console/v1/wizard/restart, then sign out: the only way to change the chain after a deploy. */
  restart(): Promise<void>;
  /** Signs the Sign-In with Ethereum message with the wallet's account `address`; `me.provenWallet` follows. */
  proveWallet(address: string): Promise<string>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in view");
  return s;
}
