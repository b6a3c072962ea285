import { Interface, concat, dataLength, solidityPacked } from "ethers";

/**
 * Safe batches through MultiSendCallOnly v1.4.1 (docs/architecture.md#safe-multisig): its
 * address, its code hash and the `multiSend(bytes)` calldata of a batch. One definition for the
 * API (batch proposals), the deployer (admin Safe transactions) and the testkit.
 */

/** MultiSendCallOnly v1.4.1's canonical deployment (safe-deployments), the default target. */
export const CANONICAL_MULTISEND_CALL_ONLY = "0x9641d764fc13c8B624c04430C7356C1C7C8102e2";

/**
 * keccak256 of MultiSendCallOnly v1.4.1's runtime code (no immutables: the same on every chain
 * and address). A Safe delegatecall runs the target's code with the Safe's storage, so only this
 * audited code, which itself refuses delegatecalls, is ever proposed as one.
 */
export const MULTISEND_CALL_ONLY_CODE_HASH = "0xecd5bd14a08c5d2122379900b2f272bdf107a7e92423c10dd5fe3254386c9939";

/** One call of a batch: a plain call (operation 0) from the Safe; `value` defaults to 0. */
export interface MultiSendCall {
  to: string;
  data: string;
  value?: bigint;
}

const MULTISEND = new Interface(["function multiSend(bytes transactions) payable"]);

/** `multiSend(bytes)` calldata: each call packed as operation 0, to, value, data length, data. */
export function encodeMultiSend(calls: readonly MultiSendCall[]): string {
  const packed = concat(
    calls.map((c) =>
      solidityPacked(
        ["uint8", "address", "uint256", "uint256", "bytes"],
        [0, c.to, c.value ?? 0n, dataLength(c.data), c.data],
      ),
    ),
  );
  return MULTISEND.encodeFunctionData("multiSend", [packed]);
}
