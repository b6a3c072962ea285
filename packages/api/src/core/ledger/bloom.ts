import { getBytes, keccak256 } from "ethers";

/** A block's logs bloom with no bit set: some nodes send it for every block, so it proves nothing. */
const EMPTY_BLOOM = "0x" + "0".repeat(512);

/** Per address (lower case): the three (byte, bit) places its keccak sets in a 2048-bit bloom. */
const placesOf = new Map<string, [number, number][]>();

function places(address: string): [number, number][] {
  let p = placesOf.get(address);
  if (!p) {
    const h = getBytes(keccak256(address));
    p = [0, 2, 4].map((i) => {
      // The low 11 bits of each of the first three byte pairs pick one of 2048 bits, counted from the end.
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
      return [255 - (bit >> 3), 1 << (bit & 7)];
    });
    placesOf.set(address, p);
  }
  return p;
}

/**
 * Whether a block whose header carries `logsBloom` may hold a log of any of `addresses` (lower
 * case): false only when the bloom lacks one of each address's three bits, which no block with
 * such a log has (the yellow paper's M3:2048). A missing or empty bloom may hold anything.
 */
export function bloomMayHold(logsBloom: string | undefined, addresses: Iterable<string>): boolean {
  if (typeof logsBloom !== "string" || logsBloom.length !== 514 || logsBloom === EMPTY_BLOOM) return true;
  const bloom = getBytes(logsBloom);
  for (const a of addresses) {
    if (places(a).every(([byte, mask]) => (bloom[byte]! & mask) !== 0)) return true;
  }
  return false;
}
