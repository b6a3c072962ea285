import type { Signer, Transaction, TransactionReceipt } from "ethers";
import type { UnsignedTx } from "@points/schema";
import {
  broadcastError,
  broadcastTx,
  checkSigner,
  decode,
  signTx,
  signsRaw,
  waitTx,
  type SignedTx,
  type WaitOptions,
} from "./chain.js";

/** The API's unsigned transaction (every field of its `data`) plus the means to send it. */
export type PreparedTx = UnsignedTx & {
  /** The unsigned transaction decoded from `tx` (the exact bytes the API built). */
  transaction(): Transaction;
  /**
   * Signs the API's bytes (a signer holding its key: an ethers `Wallet`); nothing is broadcast.
   * The hash is then known, so a caller can store it before `broadcast`.
   */
  sign(signer: Signer): Promise<SignedTx>;
  /**
   * Signs, broadcasts through the signer's provider and waits for the receipt. Throws
   * PointsApiError: WRONG_SIGNER when the signer is not `from` (nothing is signed),
   * NONCE_CONFLICT or BROADCAST_FAILED when the node refuses it, TX_REVERTED when the mined
   * receipt failed. A transaction already mined is not an error: its receipt is returned.
   */
  send(signer: Signer, opts?: WaitOptions): Promise<TransactionReceipt>;
};

/** Wraps the API's `data` of a build route; the helpers are not enumerable, so JSON stays the API's. */
export function prepare(data: UnsignedTx): PreparedTx {
  const prepared = { ...data } as PreparedTx;
  Object.defineProperties(prepared, {
    transaction: { value: () => decode(data) },
    sign: { value: (signer: Signer) => signTx(data, signer) },
    send: { value: (signer: Signer, opts?: WaitOptions) => send(data, signer, opts) },
  });
  return prepared;
}

async function send(data: UnsignedTx, signer: Signer, opts: WaitOptions = {}) {
  const provider = await checkSigner(data, signer);
  if (signsRaw(signer)) {
    const signed = await signTx(data, signer);
    await broadcastTx(provider, signed);
    return waitTx(provider, signed.hash, opts);
  }
  const unsigned = decode(data);
  let hash: string;
  try {
    hash = (
      await signer.sendTransaction({
        type: 2,
        to: unsigned.to,
        data: unsigned.data,
        value: unsigned.value,
        nonce: unsigned.nonce,
        gasLimit: unsigned.gasLimit,
        maxFeePerGas: unsigned.maxFeePerGas,
        maxPriorityFeePerGas: unsigned.maxPriorityFeePerGas,
        chainId: unsigned.chainId,
      })
    ).hash;
  } catch (e) {
    throw broadcastError(e, undefined, data.nonce);
  }
  return waitTx(provider, hash, opts);
}
