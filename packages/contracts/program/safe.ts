import { Contract, Interface, TypedDataEncoder, getAddress, type ContractRunner, type TypedDataField } from "ethers";
import { SAFE_DOMAIN_TYPE, SAFE_TX_TYPES } from "./safeTx.js";

/**
 * A Safe (v1.3/v1.4) as the API and the deployer talk to it (docs/architecture.md#safe-multisig):
 * the views and calls they use, its views read from the chain, and the SafeTx an owner signs with
 * its EIP-712 domain and hash. Errors are the chain's own: each caller maps them to its codes.
 */

/** The Safe functions the API and the deployer call (a Safe of 1.3 or 1.4 has them all). */
export const SAFE_ABI = new Interface([
  "function VERSION() view returns (string)",
  "function getThreshold() view returns (uint256)",
  "function getOwners() view returns (address[])",
  "function nonce() view returns (uint256)",
  "function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)",
  "function simulateAndRevert(address targetContract, bytes calldataPayload)",
  "function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)",
]);

/** A Safe's signing setup: its version, how many owners must sign, and who they are (checksummed). */
export interface SafeViews {
  version: string;
  threshold: number;
  owners: string[];
}

/**
 * The Safe views of the contract at `address`: VERSION, getThreshold and getOwners. A failed call
 * (a revert, undecodable data, a dead node) is thrown as ethers threw it.
 */
export async function readSafeViews(runner: ContractRunner, address: string): Promise<SafeViews> {
  const safe = new Contract(address, SAFE_ABI, runner);
  const [version, threshold, owners] = await Promise.all([
    safe.getFunction("VERSION")() as Promise<string>,
    safe.getFunction("getThreshold")() as Promise<bigint>,
    safe.getFunction("getOwners")() as Promise<string[]>,
  ]);
  return { version, threshold: Number(threshold), owners: owners.map((o) => getAddress(o)) };
}

/** The Safe's next nonce (`nonce()`); a failed call is thrown as ethers threw it. */
export async function readSafeNonce(runner: ContractRunner, address: string): Promise<bigint> {
  return new Contract(address, SAFE_ABI, runner).getFunction("nonce")() as Promise<bigint>;
}

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as const;

/** The SafeTx fields, integers as decimal strings (the API's proposal `tx`). */
export interface SafeTxFields {
  to: string;
  value: string;
  data: string;
  operation: 0 | 1;
  safeTxGas: string;
  baseGas: string;
  gasPrice: string;
  gasToken: string;
  refundReceiver: string;
  nonce: string;
}

/** A SafeTx without gas refund: no safeTxGas, baseGas, gasPrice, gasToken or refundReceiver. */
export type RefundFreeSafeTx<Op extends 0 | 1> = SafeTxFields & {
  operation: Op;
  safeTxGas: "0";
  baseGas: "0";
  gasPrice: "0";
  gasToken: typeof ZERO_ADDRESS;
  refundReceiver: typeof ZERO_ADDRESS;
};

/**
 * The SafeTx of `call` at `nonce`: a plain call (operation 0) unless `call.operation` says 1 (a
 * delegatecall, for MultiSendCallOnly batches), `value` 0 unless given, and no gas refund.
 */
export function safeTxFields<Op extends 0 | 1 = 0>(
  call: { to: string; data: string; value?: bigint; operation?: Op },
  nonce: bigint,
): RefundFreeSafeTx<Op> {
  return {
    to: getAddress(call.to),
    value: (call.value ?? 0n).toString(),
    data: call.data,
    operation: call.operation ?? (0 as Op),
    safeTxGas: "0",
    baseGas: "0",
    gasPrice: "0",
    gasToken: ZERO_ADDRESS,
    refundReceiver: ZERO_ADDRESS,
    nonce: nonce.toString(),
  };
}

/** SAFE_TX_TYPES as ethers' TypedDataEncoder and signTypedData take them (mutable arrays). */
export const ETHERS_SAFE_TX_TYPES: { SafeTx: TypedDataField[] } = {
  SafeTx: SAFE_TX_TYPES.SafeTx.map((f) => ({ ...f })),
};

/**
 * SAFE_TYPED_DATA_TYPES (EIP712Domain, then SafeTx) with mutable arrays, as eth_signTypedData_v4
 * takes them; ethers' signTypedData wants `types` without EIP712Domain (ETHERS_SAFE_TX_TYPES).
 */
export const ETHERS_SAFE_TYPED_DATA_TYPES: { EIP712Domain: TypedDataField[]; SafeTx: TypedDataField[] } = {
  EIP712Domain: SAFE_DOMAIN_TYPE.map((f) => ({ ...f })),
  ...ETHERS_SAFE_TX_TYPES,
};

/** The EIP-712 domain of the Safe at `safe` on `chainId`: chainId (decimal) and the checksummed Safe. */
export function safeTxDomain(chainId: bigint | number | string, safe: string) {
  return { chainId: chainId.toString(), verifyingContract: getAddress(safe) };
}

/** The safeTxHash of `tx` for the Safe at `safe` on `chainId`: what its owners sign and it checks. */
export function safeTxHash(chainId: bigint | number | string, safe: string, tx: SafeTxFields): string {
  return TypedDataEncoder.hash(safeTxDomain(chainId, safe), ETHERS_SAFE_TX_TYPES, tx);
}
