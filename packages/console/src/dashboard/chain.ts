import { Contract, type BrowserProvider } from "ethers";
import type { ContractName } from "@points/schema";
import type { ProgramView } from "./context";

// Reads the API has no route for (per-contract pause state) are view calls through the
// connected wallet's own RPC; lists and histories come from the ledger routes. Every write
// still goes through the API.

export const programContracts = (p: ProgramView): [ContractName, string][] =>
  (
    [
      ["factory", p.factory],
      ["points", p.points],
      ["collateralVault", p.collateralVault],
      ["pspVault", p.pspVault],
      ["oracle", p.oracle],
    ] as [ContractName, string | null][]
  ).filter((e): e is [ContractName, string] => !!e[1]);

/** `paused()` of each program contract (every one is Pausable). */
export async function pausedStates(provider: BrowserProvider, p: ProgramView) {
  const abi = ["function paused() view returns (bool)"];
  return Object.fromEntries(
    await Promise.all(
      programContracts(p).map(
        async ([n, a]) => [n, (await new Contract(a, abi, provider).getFunction("paused")()) as boolean] as const,
      ),
    ),
  ) as Partial<Record<ContractName, boolean>>;
}
