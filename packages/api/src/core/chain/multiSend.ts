import { AbiCoder, dataLength, dataSlice, getAddress, keccak256 } from "ethers";
import { ApiError } from "../errors.js";
import { chainUnavailable, type ChainClient } from "./client.js";
import { revertData } from "./revert.js";
import {
  MULTISEND_CALL_ONLY_CODE_HASH,
  encodeMultiSend,
  type MultiSendCall,
} from "@points/contracts/program/multiSend";
import { SAFE_ABI } from "@points/contracts/program/safe";

/**
 * Safe batches through MultiSendCallOnly v1.4.1 (docs/architecture.md#safe-multisig): the check
 * that a delegatecall target really is that contract, and the in-order simulation. Its address,
 * code hash and the batch encoding live in `@points/contracts/program/multiSend`.
 */

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
async function batchSucceeds(chain: ChainClient, safe: string, multiSend: string, calls: MultiSendCall[]) {
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
  calls: MultiSendCall[],
): Promise<number | undefined> {
  if (await batchSucceeds(chain, safe, multiSend, calls)) return undefined;
  const prefixes = await Promise.all(
    calls.map((_, i) =>
      i === calls.length - 1 ? false : batchSucceeds(chain, safe, multiSend, calls.slice(0, i + 1)),
    ),
  );
  return prefixes.indexOf(false);
}
