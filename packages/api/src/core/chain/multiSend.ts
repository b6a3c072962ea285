import { AbiCoder, Interface, concat, dataLength, dataSlice, getAddress, keccak256, solidityPacked } from "ethers";
import { ApiError } from "../errors.js";
import { chainUnavailable, type ChainClient } from "./client.js";
import { revertData } from "./revert.js";
import { SAFE_ABI } from "./safe.js";

/**
 * Safe batches through MultiSendCallOnly v1.4.1 (docs/architecture.md#safe-multisig): encoding,
 * the check that a delegatecall target really is that contract, and the in-order simulation.
 */

/** MultiSendCallOnly v1.4.1's canonical deployment (safe-deployments), the default target. */
export const CANONICAL_MULTISEND_CALL_ONLY = "0x9641d764fc13c8B624c04430C7356C1C7C8102e2";

/**
 * keccak256 of MultiSendCallOnly v1.4.1's runtime code (no immutables: the same on every chain
 * and address). A Safe delegatecall runs the target's code with the Safe's storage, so only this
 * audited code, which itself refuses delegatecalls, is ever proposed as one.
 */
export const MULTISEND_CALL_ONLY_CODE_HASH = "0xecd5bd14a08c5d2122379900b2f272bdf107a7e92423c10dd5fe3254386c9939";

const MULTISEND = new Interface(["function multiSend(bytes transactions) payable"]);

/** A call of a batch: a plain call (operation 0) from the Safe. */
export interface BatchCall {
  to: string;
  data: string;
}

/** `multiSend(bytes)` calldata: each call packed as operation, to, value, data length, data. */
export function encodeMultiSend(calls: BatchCall[]): string {
  const packed = concat(
    calls.map((c) =>
      solidityPacked(["uint8", "address", "uint256", "uint256", "bytes"], [0, c.to, 0n, dataLength(c.data), c.data]),
    ),
  );
  return MULTISEND.encodeFunctionData("multiSend", [packed]);
}

/** Refuses `address` unless its code is MultiSendCallOnly v1.4.1's (404 NOT_MULTISEND_CALL_ONLY, as a missing Safe is). */
export async function requireMultiSendCallOnly(chain: ChainClient, address: string): Promise<void> {
  let code: string;
  try {
    code = await chain.provider.getCode(address);
  } catch (e) {
    chainUnavailable(e, chain.config);
  }
  if (keccak256(code) !== MULTISEND_CALL_ONLY_CODE_HASH) {
    throw new ApiError(
      "NOT_FOUND",
      `${getAddress(address)} is not MultiSendCallOnly v1.4.1 on chain ${chain.config.chainId}: a Safe delegatecalls only into that contract`,
      { reason: "NOT_MULTISEND_CALL_ONLY", address: getAddress(address) },
    );
  }
}

/**
 * Whether `calls` all succeed when `safe` delegatecalls `multiSend` with them. The Safe's own
 * `simulateAndRevert` (StorageAccessible, Safe 1.3+) delegatecalls the target in the Safe's
 * context, exactly as execTransaction with operation 1 does, and always reverts with
 * abi.encode(success, returndata length) ++ returndata: a plain eth_call any node answers,
 * without signatures, state overrides or impersonation.
 */
async function batchSucceeds(chain: ChainClient, safe: string, multiSend: string, calls: BatchCall[]) {
  const data = SAFE_ABI.encodeFunctionData("simulateAndRevert", [multiSend, encodeMultiSend(calls)]);
  try {
    await chain.provider.call({ to: safe, data });
  } catch (e) {
    const out = revertData(e);
    if (out === undefined || dataLength(out) < 64) chainUnavailable(e, chain.config);
    return AbiCoder.defaultAbiCoder().decode(["bool"], dataSlice(out, 0, 32))[0] as boolean;
  }
  // simulateAndRevert never returns: something else answered at that address.
  throw new ApiError("WOULD_REVERT", `${safe} did not simulate the batch as a Safe does`, { contract: "safe" });
}

/**
 * The index of the first call of `calls` that reverts after the ones before it, or undefined when
 * the whole batch succeeds. MultiSendCallOnly reverts with no data, so a failing batch is
 * simulated again by prefixes (in one JSON-RPC batch) to find which call fails.
 */
export async function firstFailingCall(
  chain: ChainClient,
  safe: string,
  multiSend: string,
  calls: BatchCall[],
): Promise<number | undefined> {
  if (await batchSucceeds(chain, safe, multiSend, calls)) return undefined;
  const prefixes = await Promise.all(
    calls.map((_, i) =>
      i === calls.length - 1 ? false : batchSucceeds(chain, safe, multiSend, calls.slice(0, i + 1)),
    ),
  );
  return prefixes.indexOf(false);
}
