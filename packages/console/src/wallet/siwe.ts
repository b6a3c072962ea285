import type { JsonRpcSigner } from "ethers";
import { consoleApi } from "../api/console";
import { siweMessage } from "./siweMessage";

/**
 * Proves the connected wallet to the server with Sign-In with Ethereum (EIP-4361): the server
 * issues a nonce to this session and says which domain, URI, chains and expiry it accepts; the
 * wallet signs the message (personal_sign); the server binds the address to the session.
 * A deploy from the console must name that wallet.
 */
export async function proveWallet(signer: JsonRpcSigner): Promise<string> {
  const c = await consoleApi.walletNonce();
  const walletChainId = Number((await signer.provider.getNetwork()).chainId);
  const chainId = c.chainIds.includes(walletChainId) ? walletChainId : c.chainIds[0];
  // An API with no chain configured accepts no sign-in message: say so rather than sign one.
  if (chainId === undefined) throw new Error("The API has no chain configured for wallet sign-in");
  const message = siweMessage({
    domain: c.domain,
    address: await signer.getAddress(),
    statement: c.statement,
    uri: c.uri,
    version: c.version,
    chainId,
    nonce: c.nonce,
    issuedAt: c.issuedAt,
    expirationTime: c.expirationTime,
  });
  const signature = await signer.signMessage(message);
  return (await consoleApi.walletProve(message, signature)).wallet;
}
