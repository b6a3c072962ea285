import { getAddress } from "ethers";

// Any caller may name any address: the cache is dropped whole once it holds this many.
const MAX_ENTRIES = 10_000;
const known = new Map<string, string>();

/**
 * `getAddress` remembered per input string: a checksum is a keccak of the address, and a build
 * request checksummed the same few addresses (its signer, the program's contracts) six times or
 * more (docs/architecture.md#cpu-per-request). It throws exactly as `getAddress` does; a
 * refused input is not remembered.
 */
export function checksummed(address: string): string {
  let value = known.get(address);
  if (value === undefined) {
    value = getAddress(address);
    if (known.size >= MAX_ENTRIES) known.clear();
    known.set(address, value);
  }
  return value;
}
