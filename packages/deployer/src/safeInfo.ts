import type { Provider } from "ethers";
import { readSafeViews, type SafeViews } from "@points/contracts/program/safe";

/** A Safe's signing setup as read from the chain (docs/deployment.md#a-safe-as-admin). */
export type SafeInfo = SafeViews;

/**
 * The Safe at `address`, or undefined for a wallet (no code) or a contract that does not answer
 * a Safe's views: an admin is reported as a Safe only when the chain says it is one.
 */
export async function safeInfo(provider: Provider, address: string): Promise<SafeInfo | undefined> {
  if ((await provider.getCode(address)) === "0x") return undefined;
  try {
    return await readSafeViews(provider, address);
  } catch {
    return undefined;
  }
}
