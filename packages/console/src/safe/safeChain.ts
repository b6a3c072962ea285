import { Contract, ZeroAddress, getAddress, type BrowserProvider } from "ethers";
import type { ProgramView } from "../api/programView";

/** The four contracts whose DEFAULT_ADMIN_ROLE moves in a handover (the API's HANDOVER_CONTRACTS). */
export const HANDOVER_CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;
export type HandoverContract = (typeof HANDOVER_CONTRACTS)[number];

const SAFE_VIEWS = [
  "function getOwners() view returns (address[])",
  "function getThreshold() view returns (uint256)",
  "function nonce() view returns (uint256)",
  "function VERSION() view returns (string)",
];
const ADMIN_VIEWS = [
  "function defaultAdmin() view returns (address)",
  "function pendingDefaultAdmin() view returns (address newAdmin, uint48 schedule)",
];

/** A Safe as its own views answer: owners (EIP-55), threshold, next nonce, version. */
export interface SafeInfo {
  address: string;
  owners: string[];
  threshold: number;
  nonce: bigint;
  version: string;
}

/**
 * `address` read as a Safe, or null when its code does not answer the Safe's views (a wallet,
 * or another contract): a Safe is recognised by what it answers, never by a guess.
 */
export async function readSafe(provider: BrowserProvider, address: string): Promise<SafeInfo | null> {
  if ((await provider.getCode(address)) === "0x") return null;
  const safe = new Contract(address, SAFE_VIEWS, provider);
  try {
    const [owners, threshold, nonce, version] = await Promise.all([
      safe.getFunction("getOwners")() as Promise<string[]>,
      safe.getFunction("getThreshold")() as Promise<bigint>,
      safe.getFunction("nonce")() as Promise<bigint>,
      safe.getFunction("VERSION")() as Promise<string>,
    ]);
    return {
      address: getAddress(address),
      owners: owners.map((o) => getAddress(o)),
      threshold: Number(threshold),
      nonce,
      version,
    };
  } catch {
    return null;
  }
}

/** Who administers each contract now, and who was offered the role (null when nobody). */
export interface AdminState {
  contract: HandoverContract;
  admin: string;
  pending: string | null;
  /** Unix seconds from which the pending admin may accept. */
  schedule: number;
}

export async function readAdmins(provider: BrowserProvider, program: ProgramView): Promise<AdminState[]> {
  return Promise.all(
    HANDOVER_CONTRACTS.map(async (contract) => {
      const c = new Contract(program[contract] as string, ADMIN_VIEWS, provider);
      const [admin, [pending, schedule]] = await Promise.all([
        c.getFunction("defaultAdmin")() as Promise<string>,
        c.getFunction("pendingDefaultAdmin")() as Promise<[string, bigint]>,
      ]);
      return {
        contract,
        admin: getAddress(admin),
        pending: pending === ZeroAddress ? null : getAddress(pending),
        schedule: Number(schedule),
      };
    }),
  );
}

/** The program's admin when every handover contract has the same one (the usual case), else null. */
export const commonAdmin = (admins: AdminState[]) =>
  admins.every((a) => a.admin === admins[0]?.admin) ? (admins[0]?.admin ?? null) : null;
