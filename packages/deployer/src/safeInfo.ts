import { Contract, getAddress, type Provider } from "ethers";

/** A Safe's signing setup as read from the chain (docs/deployment.md#a-safe-as-admin). */
export interface SafeInfo {
  version: string;
  threshold: number;
  owners: string[];
}

const SAFE_VIEWS = [
  "function VERSION() view returns (string)",
  "function getThreshold() view returns (uint256)",
  "function getOwners() view returns (address[])",
];

/**
 * The Safe at `address`, or undefined for a wallet (no code) or a contract that does not answer
 * a Safe's views: an admin is reported as a Safe only when the chain says it is one.
 */
export async function safeInfo(provider: Provider, address: string): Promise<SafeInfo | undefined> {
  if ((await provider.getCode(address)) === "0x") return undefined;
  const safe = new Contract(address, SAFE_VIEWS, provider);
  try {
    const [version, threshold, owners] = await Promise.all([
      safe.getFunction("VERSION")() as Promise<string>,
      safe.getFunction("getThreshold")() as Promise<bigint>,
      safe.getFunction("getOwners")() as Promise<string[]>,
    ]);
    return { version, threshold: Number(threshold), owners: owners.map((o) => getAddress(o)) };
  } catch {
    return undefined;
  }
}
