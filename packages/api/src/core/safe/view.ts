import { Signature, concat, getAddress, id, recoverAddress } from "ethers";
import type { SafeProposal } from "@points/schema";
import type { ChainClient } from "../chain/client.js";
import { chainUnavailable } from "../chain/client.js";
import { readSafe, type SafeState } from "../chain/safe.js";
import { ApiError } from "../errors.js";
import type { StoredProposal } from "./proposals.js";

/**
 * Proposals against the chain: the Safe's owners, threshold and nonce now, who signed, and
 * whether the proposal's nonce was used by it or by another transaction
 * (docs/architecture.md#safe-multisig).
 */

const EXECUTION_SUCCESS = id("ExecutionSuccess(bytes32,uint256)");

/** Runs a chain read; a dead node is CHAIN_UNAVAILABLE. */
async function onChain<T>(chain: ChainClient, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    chainUnavailable(e, chain.config);
  }
}

/** The Safe at `address`, or 404 NOT_FOUND when there is none (no code, or not a Safe's views). */
export async function safeAt(chain: ChainClient, address: string): Promise<SafeState> {
  const safe = await onChain(chain, async () => readSafe(chain, address, await chain.provider.getCode(address)));
  if (!safe) {
    throw new ApiError("NOT_FOUND", `${getAddress(address)} is not a Safe on chain ${chain.config.chainId}`, {
      reason: "NOT_A_SAFE",
      safe: getAddress(address),
    });
  }
  return safe;
}

/**
 * The owner whose EIP-712 signature `signature` is of `safeTxHash` (the schema admits only
 * plain ECDSA, v 27 or 28). One that recovers to no address is refused like a non-owner's.
 */
export function signerOf(safeTxHash: string, signature: string): string {
  try {
    return getAddress(recoverAddress(safeTxHash, Signature.from(signature)));
  } catch {
    throw new ApiError("FORBIDDEN", "the signature recovers to no address", { reason: "INVALID_SIGNATURE" });
  }
}

/** Signatures of current owners, in ascending owner order (as execTransaction checks them). */
export function ownerSignatures(p: StoredProposal, safe: SafeState) {
  const owners = new Set(safe.owners);
  return p.signatures.filter((s) => owners.has(s.owner)).sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1));
}

/** The answer for `p`: its status and signatures against the Safe's state now. */
export async function proposalView(chain: ChainClient, p: StoredProposal, known?: SafeState): Promise<SafeProposal> {
  const safe = known ?? (await safeAt(chain, p.safe));
  const valid = ownerSignatures(p, safe).length;
  let status: SafeProposal["status"];
  if (p.nonce < safe.nonce) {
    const logs = await onChain(chain, () =>
      chain.provider.getLogs({ address: p.safe, topics: [EXECUTION_SUCCESS, p.safeTxHash], fromBlock: p.createdBlock }),
    );
    status = logs.length > 0 ? "executed" : "replaced";
  } else status = p.nonce === safe.nonce && valid >= safe.threshold ? "executable" : "pending";
  return {
    id: p.id,
    chainId: p.chainId,
    safe: p.safe,
    safeTxHash: p.safeTxHash,
    tx: p.tx,
    status,
    threshold: safe.threshold,
    owners: safe.owners,
    signatures: p.signatures,
    missing: Math.max(0, safe.threshold - valid),
    createdAt: p.createdAt,
  };
}

/** Refuses work on a proposal whose nonce is already used (executed or replaced). */
export function requireOpen(view: SafeProposal) {
  if (view.status === "executed" || view.status === "replaced") {
    throw new ApiError("CONFLICT", `proposal ${view.id} is ${view.status}: the Safe's nonce ${view.tx.nonce} is used`, {
      reason: "NONCE_USED",
      status: view.status,
    });
  }
}

export const packSignatures = (sigs: { signature: string }[]) => concat(sigs.map((s) => s.signature));
