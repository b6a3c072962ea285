import { toUtf8Bytes } from "ethers";

/** One argument of a batch call, by ABI type. */
export type BulkArg =
  | { type: "bytes32"; value: string }
  | { type: "address[]"; value: string[] }
  | { type: "uint256[]"; value: bigint[] }
  | { type: "string"; value: string };

const word = (hex: string) => hex.padStart(64, "0");
const uint = (n: number | bigint) => word(n.toString(16));

/**
 * ABI encoding of the batch forms' calls (bytes32, address[], uint256[], string arguments),
 * without ethers' per-address checksum hashing: the rows are already checked and checksummed,
 * and 10,000 addresses hashed again per encoding cost more than the simulation budget allows.
 * Equal to ethers' encodeFunctionData (test/bulk.abi.test.ts).
 */
export function encodeBatchCall(selector: string, args: BulkArg[]): string {
  const head: string[] = [];
  const tail: string[] = [];
  let offset = args.length * 32;
  for (const a of args) {
    if (a.type === "bytes32") {
      head.push(a.value.slice(2).toLowerCase());
      continue;
    }
    head.push(uint(offset));
    let part: string;
    if (a.type === "string") {
      const hex = Buffer.from(toUtf8Bytes(a.value)).toString("hex");
      part = uint(hex.length / 2) + hex.padEnd(Math.ceil(hex.length / 64) * 64, "0");
    } else if (a.type === "address[]") {
      part = uint(a.value.length) + a.value.map((v) => word(v.slice(2).toLowerCase())).join("");
    } else {
      part = uint(a.value.length) + a.value.map(uint).join("");
    }
    tail.push(part);
    offset += part.length / 2;
  }
  return selector + head.join("") + tail.join("");
}
