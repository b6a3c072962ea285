import { getAddress } from "ethers";
import { isAddress } from "../components/ui";

/** An all-lowercase or all-uppercase address carries no checksum; a mixed-case one must match EIP-55. */
export function checksumOk(v: string): boolean {
  const hex = v.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  try {
    return getAddress(v) === v;
  } catch {
    return false;
  }
}

export const CHECKSUM_TYPO = "This address has a typo: its capital letters do not match its checksum. Copy it again.";

/** What is wrong with a typed address, in a sentence for next to the field; null when it is fine. */
export function addressError(raw: string): string | null {
  const v = raw.trim();
  if (!v) return "Required.";
  if (!isAddress(v)) return "Must be an address (0x + 40 hex digits).";
  return checksumOk(v) ? null : CHECKSUM_TYPO;
}

/** The zero address, in any case: no account (an unset receiver, treasury or funder). */
export const isZeroAddress = (a: string): boolean => /^0x0{40}$/i.test(a);
