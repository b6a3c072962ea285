import { getAddress } from "ethers";
import type { ProposalTx } from "@points/schema";
import { isRpcUnreachable } from "@points/contracts/program";
import {
  ETHERS_SAFE_TX_TYPES,
  readSafeNonce,
  readSafeViews,
  safeTxDomain,
  safeTxHash,
  type SafeViews,
} from "@points/contracts/program/safe";
import { ApiError } from "../errors.js";
import type { ChainClient } from "./client.js";

/**
 * Safe (v1.3+) signers of build routes: detection on chain and the Safe transaction an owner
 * signs (docs/architecture.md#safe-multisig).
 */
/** A Safe's state as read from the chain. */
export interface SafeState {
  address: string;
  version: string;
  threshold: number;
  owners: string[];
  nonce: bigint;
}

/** Safe versions whose SafeTx EIP-712 domain is {chainId, verifyingContract}. */
const SUPPORTED = /^1\.(?:3|4)\.\d+(?:\+L2)?$/;

/**
 * Whether a failed view call means "this contract has no such view": it reverted, or answered
 * data that does not decode. A node that is down, slow or answers an error of its own is not
 * that, and must not turn a real Safe into "not a Safe".
 */
function isNotASafeView(e: unknown): boolean {
  const err = e as { code?: string; data?: unknown; info?: { error?: { message?: unknown }; signature?: unknown } };
  // ethers makes any JSON-RPC error of eth_call a CALL_EXCEPTION: a revert carries its data (or says so).
  if (err.code === "CALL_EXCEPTION") {
    const nodeMessage = err.info?.error?.message;
    return err.data != null || typeof nodeMessage !== "string" || /revert/i.test(nodeMessage);
  }
  // Undecodable result data (the ABI decoder names the function); not a broken JSON-RPC answer.
  return err.code === "BAD_DATA" && err.info?.signature !== undefined;
}

/**
 * The Safe at `address`, or undefined when `code` (its bytecode) is empty or the contract does
 * not answer the Safe's views. Any other failure of the reads is thrown (the caller maps it to
 * CHAIN_UNAVAILABLE). A Safe of a version whose signing scheme the API does not know is refused
 * rather than answered with typed data its owners could not use.
 */
export async function readSafe(chain: ChainClient, address: string, code: string): Promise<SafeState | undefined> {
  if (code === "0x") return undefined;
  let views: SafeViews, nonce: bigint;
  try {
    [views, nonce] = await Promise.all([
      readSafeViews(chain.provider, address),
      readSafeNonce(chain.provider, address),
    ]);
  } catch (e) {
    if (isNotASafeView(e)) return undefined;
    if (isRpcUnreachable(e) || (e as { code?: string }).code === "CALL_EXCEPTION") {
      // The node failed the call (a transport failure, or an error of its own that is no revert).
      throw new ApiError(
        "CHAIN_UNAVAILABLE",
        `chain ${chain.config.chainId} (${chain.config.name}) did not answer`,
        undefined,
        {
          cause: e,
        },
      );
    }
    throw e;
  }
  const { version, threshold, owners } = views;
  if (!SUPPORTED.test(version)) {
    throw new ApiError("INVALID_INPUT", `${address} is a Safe of version ${version}; supported are 1.3.x and 1.4.x`, {
      safe: address,
      version,
    });
  }
  return {
    address: getAddress(address),
    version,
    threshold,
    owners,
    nonce,
  };
}

/** The EIP-712 domain, typed data and safeTxHash of `tx` for `safe` on `chainId`. */
export function safeTxAnswer<T extends ProposalTx>(chainId: bigint, safe: SafeState, tx: T) {
  const domain = safeTxDomain(chainId, safe.address);
  const types = ETHERS_SAFE_TX_TYPES;
  return {
    address: safe.address,
    version: safe.version,
    threshold: safe.threshold,
    owners: safe.owners,
    tx,
    typedData: { domain, types, primaryType: "SafeTx" as const, message: tx },
    safeTxHash: safeTxHash(chainId, safe.address, tx),
  };
}
