import { isHexString, keccak256, toUtf8Bytes } from "ethers";
import type { UnsignedTx } from "@points/schema";

/** bytes32 hex as is, or a text label hashed with keccak256; the response says which. */
export function campaignId(input: string): NonNullable<UnsignedTx["campaignId"]> {
  if (isHexString(input, 32)) return { value: input.toLowerCase(), source: "hex" };
  return { value: keccak256(toUtf8Bytes(input)), source: "label", label: input };
}
