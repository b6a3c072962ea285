import {
  BaseWallet,
  Transaction,
  decodeBase64,
  getAddress,
  hexlify,
  isError,
  keccak256,
  type Signer,
  type TransactionReceipt,
  type TransactionResponse,
} from "ethers";
import type { UnsignedTx } from "@points/schema";
import { PointsApiError } from "./errors.js";
import type { PreparedTx } from "./types.js";

export type { PreparedTx };

/** Wraps the API's `data` of a build route; the helpers are not enumerable, so JSON stays the API's. */
export function prepare(data: UnsignedTx): PreparedTx {
  const prepared = { ...data } as PreparedTx;
  Object.defineProperties(prepared, {
    transaction: { value: () => decode(data) },
    send: { value: (signer: Signer, opts?: { confirmations?: number }) => send(data, signer, opts) },
  });
  return prepared;
}

const decode = (data: UnsignedTx) => Transaction.from(hexlify(decodeBase64(data.tx)));

// A wallet holding its key signs the API's bytes as they are; other signers (browser wallets,
// JSON-RPC accounts) only offer sendTransaction, so they get the same fields to send.
const signsRaw = (signer: Signer) => signer instanceof BaseWallet || "signingKey" in signer;

async function send(data: UnsignedTx, signer: Signer, opts: { confirmations?: number } = {}) {
  const actual = getAddress(await signer.getAddress());
  if (actual !== getAddress(data.from)) {
    throw new PointsApiError("WRONG_SIGNER", `the transaction was built for ${data.from}; the signer is ${actual}`, {
      details: { expected: getAddress(data.from), actual },
    });
  }
  const provider = signer.provider;
  if (!provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to broadcast with");
  const unsigned = decode(data);
  let response: TransactionResponse;
  if (signsRaw(signer)) {
    const raw = await signer.signTransaction(unsigned);
    try {
      response = await provider.broadcastTransaction(raw);
    } catch (e) {
      // A node that executes on submission (Hardhat's automine) answers a failing transaction
      // with an error although it mined it: the receipt tells.
      const hash = keccak256(raw);
      const receipt = await provider.getTransactionReceipt(hash).catch(() => null);
      if (receipt && receipt.status === 0) throw reverted(hash, receipt, e);
      throw e;
    }
  } else {
    response = await signer.sendTransaction({
      type: 2,
      to: unsigned.to,
      data: unsigned.data,
      value: unsigned.value,
      nonce: unsigned.nonce,
      gasLimit: unsigned.gasLimit,
      maxFeePerGas: unsigned.maxFeePerGas,
      maxPriorityFeePerGas: unsigned.maxPriorityFeePerGas,
      chainId: unsigned.chainId,
    });
  }
  let receipt: TransactionReceipt | null;
  try {
    receipt = await response.wait(opts.confirmations);
  } catch (e) {
    // ethers throws CALL_EXCEPTION with the receipt when a mined transaction failed.
    if (isError(e, "CALL_EXCEPTION") && e.receipt) throw reverted(response.hash, e.receipt, e);
    throw e;
  }
  if (!receipt || receipt.status !== 1) throw reverted(response.hash, receipt, undefined);
  return receipt;
}

const reverted = (hash: string, receipt: TransactionReceipt | null, cause: unknown) =>
  new PointsApiError("TX_REVERTED", `transaction ${hash} was mined but failed`, {
    details: { hash, blockNumber: receipt?.blockNumber, gasUsed: receipt?.gasUsed.toString() },
    cause,
  });
