import type { Signer, TransactionReceipt } from "ethers";
import type { UnsignedTx } from "./types.js";
import { broadcastError, broadcastTx, checkSigner, decode, signTx, signsRaw, waitTx } from "./chain.js";
import type { PreparedTx, WaitOptions } from "./types.js";

export type { PreparedTx };

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
