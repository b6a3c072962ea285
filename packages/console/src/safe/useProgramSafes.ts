import { useEffect, useState } from "react";
import type { PointsClient } from "@points/sdk";
import type { WalletState } from "../wallet/wallet";
import type { ProgramView } from "../dashboard/context";
import { readRoleSafes, type RoleSafe } from "./roleSafes";

/**
 * Every Safe that holds a role on the program, read through the wallet's provider when it is on
 * the program's chain (none otherwise). `version` re-reads them.
 */
export function useProgramSafes(
  program: ProgramView | null,
  client: PointsClient,
  wallet: WalletState,
  version: number,
): RoleSafe[] {
  const [safes, setSafes] = useState<RoleSafe[]>([]);
  useEffect(() => {
    const provider = wallet.provider();
    if (!program || !provider || String(wallet.chainId) !== program.chainId) return setSafes([]);
    let live = true;
    readRoleSafes(provider, client, program).then(
      (s) => live && setSafes(s),
      () => live && setSafes([]),
    );
    return () => {
      live = false;
    };
  }, [program, client, wallet.chainId, wallet.address, version]);
  return safes;
}
