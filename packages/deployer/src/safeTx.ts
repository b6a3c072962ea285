import { getAddress, type Provider, type Signer } from "ethers";
import {
  CANONICAL_MULTISEND_CALL_ONLY,
  encodeMultiSend,
  type MultiSendCall,
} from "@points/contracts/program/multiSend";
import {
  ETHERS_SAFE_TX_TYPES,
  ETHERS_SAFE_TYPED_DATA_TYPES,
  readSafeNonce,
  safeTxDomain,
  safeTxFields,
  safeTxHash,
  type SafeTxFields,
} from "@points/contracts/program/safe";
import { DeployerError } from "./errors.js";
import { safeInfo } from "./safeInfo.js";

/**
 * A Safe transaction for calls an admin that is a Safe must make (docs/deployment.md#a-safe-as-admin):
 * one call as a plain call (operation 0), several as one delegatecall to MultiSendCallOnly v1.4.1
 * (operation 1). Its EIP-712 typed data is what each owner signs and its safeTxHash what the Safe
 * checks; the API's proposal store takes the same `tx` (POST /api/v1/safe/proposals).
 */

export { CANONICAL_MULTISEND_CALL_ONLY, encodeMultiSend, type SafeTxFields };

/** The SafeTx struct of Safe 1.3/1.4 (EIP-712), as its contract hashes it. */
export const SAFE_TX_TYPES = ETHERS_SAFE_TX_TYPES;

/** A call a Safe transaction makes; `value` defaults to 0. */
export type SafeCall = MultiSendCall;

export interface SafeTransaction {
  chainId: string;
  safe: string;
  threshold: number;
  owners: string[];
  /** The calls the transaction makes, in order. */
  calls: { to: string; data: string; value: string }[];
  tx: SafeTxFields;
  safeTxHash: string;
  typedData: {
    domain: { chainId: string; verifyingContract: string };
    /** EIP712Domain and SafeTx; ethers' signTypedData wants `types` without EIP712Domain. */
    types: typeof ETHERS_SAFE_TYPED_DATA_TYPES;
    primaryType: "SafeTx";
    message: SafeTxFields;
  };
}

/**
 * The Safe transaction of `calls` for the Safe at `safe`, at its next nonce (or `opts.nonce`).
 * A `safe` that is not a Safe on the chain is INVALID_CONFIG: its calls are plain transactions.
 */
export async function safeTransaction(
  provider: Provider,
  safe: string,
  calls: SafeCall[],
  opts: { multiSendCallOnly?: string; nonce?: bigint } = {},
): Promise<SafeTransaction> {
  if (calls.length === 0) throw new DeployerError("INVALID_CONFIG", "no call to propose: nothing to do");
  const info = await safeInfo(provider, safe);
  if (!info) throw new DeployerError("INVALID_CONFIG", `${safe} is not a Safe on this chain`);
  const [network, next] = await Promise.all([provider.getNetwork(), readSafeNonce(provider, safe)]);
  const multiSend = getAddress(opts.multiSendCallOnly ?? CANONICAL_MULTISEND_CALL_ONLY);
  if (calls.length > 1 && (await provider.getCode(multiSend)) === "0x") {
    throw new DeployerError("INVALID_CONFIG", `no MultiSendCallOnly at ${multiSend} on this chain: pass its address`);
  }
  const one = calls.length === 1 ? calls[0]! : undefined;
  const tx: SafeTxFields = safeTxFields(
    one
      ? { to: one.to, data: one.data, value: one.value, operation: 0 }
      : { to: multiSend, data: encodeMultiSend(calls), operation: 1 },
    opts.nonce ?? next,
  );
  const chainId = network.chainId.toString();
  const domain = safeTxDomain(chainId, safe);
  return {
    chainId,
    safe: getAddress(safe),
    threshold: info.threshold,
    owners: info.owners,
    calls: calls.map((c) => ({ to: getAddress(c.to), data: c.data, value: String(c.value ?? 0n) })),
    tx,
    safeTxHash: safeTxHash(chainId, safe, tx),
    typedData: { domain, types: ETHERS_SAFE_TYPED_DATA_TYPES, primaryType: "SafeTx", message: tx },
  };
}

/** A POST to the Safe Transaction Service: path under its `/api` base URL and JSON body. */
export interface TransactionServiceProposal {
  /** e.g. https://safe-transaction-mainnet.safe.global/api + path */
  path: string;
  body: SafeTxFields & {
    contractTransactionHash: string;
    sender: string;
    signature: string;
    origin: string;
  };
}

/**
 * The proposal the Safe Transaction Service accepts for `t` (the request `@safe-global/api-kit`'s
 * proposeTransaction sends: POST /v1/safes/{safe}/multisig-transactions/ with the SafeTx fields,
 * its hash, the proposing owner and that owner's signature of `t.typedData`), so the proposal
 * shows in Safe{Wallet}. The service refuses a sender that is not an owner or a signature that
 * does not recover to it.
 */
export function transactionServiceProposal(
  t: SafeTransaction,
  sender: string,
  signature: string,
  origin = "points-deployer",
): TransactionServiceProposal {
  if (!t.owners.some((o) => o.toLowerCase() === sender.toLowerCase())) {
    throw new DeployerError("INVALID_CONFIG", `${sender} is not an owner of the Safe ${t.safe}`);
  }
  return {
    path: `/v1/safes/${t.safe}/multisig-transactions/`,
    body: {
      ...t.tx,
      contractTransactionHash: t.safeTxHash,
      sender: getAddress(sender),
      signature,
      origin,
    },
  };
}

/**
 * Proposes `t` to the Safe Transaction Service at `serviceUrl` (its base URL, ending in `/api`, as
 * `@safe-global/api-kit` takes it), signed by `owner`: the proposal then shows in Safe{Wallet},
 * where the other owners confirm it. Nothing is sent to the chain. A refusal (not an owner, a bad
 * signature, an unknown Safe) is INVALID_CONFIG with the service's answer.
 */
export async function proposeToSafeService(
  t: SafeTransaction,
  serviceUrl: string,
  owner: Signer,
  fetchImpl: typeof fetch = fetch,
): Promise<TransactionServiceProposal> {
  const sender = getAddress(await owner.getAddress());
  // ethers takes the types without EIP712Domain (it derives that from the domain).
  const { EIP712Domain: _domainType, ...types } = t.typedData.types;
  const signature = await owner.signTypedData(t.typedData.domain, types, t.typedData.message);
  const proposal = transactionServiceProposal(t, sender, signature);
  const res = await fetchImpl(serviceUrl.replace(/\/+$/, "") + proposal.path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(proposal.body),
  });
  if (!res.ok) {
    const answer = (await res.text().catch(() => "")).slice(0, 300);
    throw new DeployerError(
      "INVALID_CONFIG",
      `the Safe Transaction Service refused the proposal (HTTP ${res.status}${answer ? `: ${answer}` : ""})`,
    );
  }
  return proposal;
}
