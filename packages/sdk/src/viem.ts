import { BrowserProvider, Transaction, getAddress, type TransactionReceipt } from "ethers";
import type { UnsignedTx } from "./types.js";
import { PointsApiError } from "./errors.js";
import { broadcastError, broadcastTx, decode, signedTx, waitTx } from "./chain.js";
import type { ViemWalletClient, WaitOptions } from "./types.js";

type Hex = `0x${string}`;

/** A viem wallet client (`createWalletClient`), told apart from an ethers signer. */
export const isViemWallet = (signer: object): signer is ViemWalletClient =>
  (signer as { type?: unknown }).type === "walletClient";

/**
 * Sends the API's transaction with a viem wallet client. A local account (a private key) signs
 * the API's exact fields and the bytes are checked against the API's; a JSON-RPC account gets
 * eth_sendTransaction with the same fields. The client's own transport broadcasts and polls.
 */
export async function sendWithViem(
  data: UnsignedTx,
  wallet: ViemWalletClient,
  opts: WaitOptions = {},
): Promise<TransactionReceipt> {
  const account = wallet.account;
  if (!account) throw new PointsApiError("WRONG_SIGNER", "the wallet client has no account");
  const actual = getAddress(account.address);
  if (actual !== getAddress(data.from)) {
    throw new PointsApiError("WRONG_SIGNER", `the transaction was built for ${data.from}; the signer is ${actual}`, {
      details: { expected: getAddress(data.from), actual },
    });
  }
  const unsigned = decode(data);
  const fields = {
    type: "eip1559" as const,
    chainId: Number(unsigned.chainId),
    nonce: unsigned.nonce,
    to: unsigned.to as Hex,
    data: unsigned.data as Hex,
    value: unsigned.value,
    gas: unsigned.gasLimit,
    maxFeePerGas: unsigned.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: unsigned.maxPriorityFeePerGas ?? 0n,
  };
  // The client's transport as an EIP-1193 provider: broadcast and receipts go where it points.
  const provider = new BrowserProvider({ request: (args) => wallet.request(args) });
  if (account.signTransaction) {
    const raw = await account.signTransaction(fields);
    // Fail closed: what was signed must be the API's transaction, field for field.
    if (Transaction.from(raw).unsignedHash !== unsigned.unsignedHash) {
      throw new PointsApiError("WRONG_SIGNER", "the wallet signed a transaction other than the API's");
    }
    const signed = signedTx(raw, data);
    await broadcastTx(provider, signed);
    return waitTx(provider, signed.hash, opts);
  }
  let hash: string;
  try {
    hash = await wallet.sendTransaction({ ...fields, account, chain: null });
  } catch (e) {
    throw broadcastError(e, undefined, data.nonce);
  }
  return waitTx(provider, hash, opts);
}
