import { parseUnits, Wallet } from "ethers";
import { PSPVault__factory } from "@points/contracts";

/**
 * Signs pSP mints of `campaignId` to `to` from the brand's key, offline, so a bench only sends
 * them: fixed gas and fees high enough for any local block, nonces from `nonce` on.
 */
export function mintSigner(record: { pspVault: string }, brandKey: string, campaignId: string, to: string) {
  const signer = new Wallet(brandKey);
  const vault = PSPVault__factory.createInterface();
  const base = {
    to: record.pspVault,
    chainId: 31337n,
    gasLimit: 200_000n,
    maxFeePerGas: parseUnits("100", "gwei"),
    maxPriorityFeePerGas: 1n,
    type: 2,
  };
  return (nonce: number, metadata = ""): Promise<string> =>
    signer.signTransaction({
      ...base,
      nonce,
      data: vault.encodeFunctionData("mint", [campaignId, to, 1n, metadata]),
    });
}
