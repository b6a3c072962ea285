import type { BrowserProvider } from "ethers";
import type { ContractName } from "@points/schema";
import { pausedStates } from "../chain";
import type { ProgramView } from "../context";
import { CONTRACT_WORDS } from "../names";
import type { Blocker, Check } from "./checks";

/**
 * The first of `needs` that is paused, said as the reason `doing` would fail (`EnforcedPause`),
 * or null. A pause state not known (undefined) blocks nothing: the contract decides.
 */
export function pausedBlocker(
  paused: Partial<Record<ContractName, boolean>>,
  needs: ContractName[],
  doing: string,
): Blocker | null {
  const stopped = needs.find((c) => paused[c] === true);
  if (!stopped) return null;
  return {
    message: `The ${CONTRACT_WORDS[stopped]} is paused, so ${doing} would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.`,
  };
}

/**
 * `check` run only once the contracts an action goes through are known to be running (read
 * through the wallet's RPC when it is on the program's chain; otherwise the contract decides).
 * Every SP movement needs the Points token running, so actions that always move SP (a mint, a
 * redemption request) name it too.
 */
export const whenRunning =
  (
    provider: () => BrowserProvider | null,
    program: ProgramView,
    needs: ContractName[],
    doing: string,
    check?: Check,
  ): Check =>
  async (v, from) => {
    const p = provider();
    if (p) {
      const stopped = pausedBlocker(await pausedStates(p, program), needs, doing);
      if (stopped) return stopped;
    }
    return check ? check(v, from) : null;
  };
