import type { JsonRpcSigner } from "ethers";
import { ETHERS_SAFE_TX_TYPES, safeTxDomain } from "@points/contracts/program/safe";
import type { SafeTxFields } from "@points/schema";
import type { PointsClient } from "@points/sdk";

/**
 * An owner's EIP-712 signature of a Safe transaction, asked of the wallet with
 * eth_signTypedData_v4 (the domain is the Safe and its chain: docs/architecture.md#safe-multisig;
 * domain and types are `@points/contracts/program/safe`'s, the ones the API and deployer hash).
 */
export async function signSafeTx(signer: JsonRpcSigner, chainId: string, safe: string, tx: SafeTxFields) {
  return signer.signTypedData(safeTxDomain(chainId, safe), ETHERS_SAFE_TX_TYPES, tx);
}

/**
 * Stores `tx` as a proposal of `safe`, signed by the connected wallet when it is an owner
 * (then one signature fewer is missing); returns the proposal's id.
 */
export async function proposeSafeTx(
  client: PointsClient,
  signer: JsonRpcSigner | null,
  p: { chainId: string; safe: string; tx: SafeTxFields },
): Promise<string> {
  const signature = signer ? await signSafeTx(signer, p.chainId, p.safe, p.tx) : undefined;
  const created = await client.safe.propose({
    chainId: Number(p.chainId),
    safe: p.safe,
    tx: p.tx as Parameters<PointsClient["safe"]["propose"]>[0]["tx"],
    ...(signature ? { signature } : {}),
  });
  return created.id;
}
