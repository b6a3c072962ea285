import {
  BaseWallet,
  Transaction,
  decodeBase64,
  getAddress,
  hexlify,
  isError,
  keccak256,
  type Provider,
  type Signer,
  type TransactionReceipt,
} from "ethers";
import { PointsApiError } from "./errors.js";
import type { Hex, SignedTx, UnsignedTx, WaitOptions } from "./types.js";

export type { SignedTx, WaitOptions };

/** The unsigned transaction exactly as the API built it. */
export const decode = (data: UnsignedTx) => Transaction.from(hexlify(decodeBase64(data.tx)));

// A wallet holding its key signs the API's bytes as they are (an ethers Wallet, a viem local
// account through viemSigner); other signers (browser wallets, JSON-RPC accounts) only offer
// sendTransaction.
export const signsRaw = (signer: Signer) =>
  signer instanceof BaseWallet || "signingKey" in signer || (signer as { signsRaw?: boolean }).signsRaw === true;

/** The signer's provider, once its address is the transaction's `from` (nothing signed otherwise). */
export async function checkSigner(data: UnsignedTx, signer: Signer): Promise<Provider> {
  const actual = getAddress(await signer.getAddress());
  if (actual !== getAddress(data.from)) {
    throw new PointsApiError("WRONG_SIGNER", `the transaction was built for ${data.from}; the signer is ${actual}`, {
      details: { expected: getAddress(data.from), actual },
    });
  }
  if (!signer.provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to broadcast with");
  return signer.provider;
}

/** Signs the API's bytes; the hash is known before broadcast, so a caller can store it first. */
export async function signTx(data: UnsignedTx, signer: Signer): Promise<SignedTx> {
  await checkSigner(data, signer);
  if (!signsRaw(signer)) {
    throw new PointsApiError("WRONG_SIGNER", "this signer only sends (a browser or JSON-RPC account): use send()");
  }
  let raw: string;
  try {
    raw = await signer.signTransaction(decode(data));
  } catch (e) {
    // A wallet that refuses (a user's rejection, a locked key) or fails: still one error type.
    if (e instanceof PointsApiError) throw e;
    const reason = (e as { shortMessage?: string }).shortMessage ?? (e as Error).message;
    throw new PointsApiError("WRONG_SIGNER", `the signer did not sign: ${reason}`, { details: { reason }, cause: e });
  }
  return signedTx(raw, data);
}

/** Signed bytes of the API's transaction `data`, with their hash (ethers' hex strings are 0x-prefixed). */
export const signedTx = (raw: string, data: UnsignedTx): SignedTx => ({
  raw: raw as Hex,
  hash: keccak256(raw) as Hex,
  from: getAddress(data.from) as Hex,
  nonce: data.nonce,
});

/**
 * Broadcasts signed bytes. A transaction the node already has, mined or pending, counts as
 * broadcast (a retry is harmless). Otherwise NONCE_CONFLICT when another transaction took its
 * nonce, BROADCAST_FAILED for any other refusal or an unreachable node.
 */
export async function broadcastTx(provider: Provider, signed: SignedTx): Promise<void> {
  try {
    await provider.broadcastTransaction(signed.raw);
  } catch (e) {
    if (await known(provider, signed.hash)) return;
    throw broadcastError(e, signed.hash, signed.nonce);
  }
}

async function known(provider: Provider, hash: string): Promise<boolean> {
  // A node that executes on submission (Hardhat's automine) may refuse a failing transaction
  // it has mined anyway: the receipt tells, and wait() reports the revert.
  const receipt = await provider.getTransactionReceipt(hash).catch(() => null);
  if (receipt) return true;
  return (await provider.getTransaction(hash).catch(() => null)) !== null;
}

export function broadcastError(e: unknown, hash: string | undefined, nonce: number | undefined): PointsApiError {
  if (e instanceof PointsApiError) return e;
  const reason = (e as { shortMessage?: string; message?: string }).shortMessage ?? (e as Error).message;
  if (isError(e, "NONCE_EXPIRED")) {
    return new PointsApiError("NONCE_CONFLICT", `nonce ${nonce} was already used by another transaction`, {
      details: { hash, nonce },
      cause: e,
    });
  }
  const code = (e as { code?: unknown }).code;
  return new PointsApiError("BROADCAST_FAILED", `the node did not take the transaction: ${reason}`, {
    details: { hash, nonce, reason: typeof code === "string" ? code : undefined },
    cause: e,
  });
}

/**
 * Runs one read of the node; any failure but the SDK's own (a refused connection, a timeout, a
 * malformed answer) becomes CHAIN_UNAVAILABLE naming what was being read, with the cause.
 */
export async function fromNode<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof PointsApiError) throw e;
    const reason = (e as { shortMessage?: string }).shortMessage ?? (e as Error).message;
    throw new PointsApiError("CHAIN_UNAVAILABLE", `the chain's node did not answer (${what}): ${reason}`, {
      details: { during: what },
      cause: e,
    });
  }
}

/** How long a wait for a receipt lasts unless told (a stopped chain must not hang a caller). */
export const DEFAULT_WAIT_MS = 300_000;

/** ABORTED at `state` when the caller's signal fired. */
export function stopIfAborted(signal: AbortSignal | undefined, state: string, hash?: string): void {
  if (!signal?.aborted) return;
  const where = hash ? ` (transaction ${hash})` : "";
  throw new PointsApiError("ABORTED", `stopped by the caller's signal, ${state}${where}`, {
    details: hash ? { state, hash } : { state },
    cause: signal.reason,
  });
}

/** Waits `ms`, cut short by the signal (the caller then checks it). */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Waits for the receipt; TX_REVERTED when it failed, CHAIN_UNAVAILABLE when none came in time. */
export async function waitTx(provider: Provider, hash: string, opts: WaitOptions = {}): Promise<TransactionReceipt> {
  const confirmations = opts.confirmations ?? 1;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  // Polls the receipt itself: block events depend on the provider's polling and cached block
  // number, and a node that only mines on demand brings no later block.
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    let receipt: TransactionReceipt | null;
    let mined = 0;
    try {
      receipt = await provider.getTransactionReceipt(hash);
      if (receipt && confirmations > 1) mined = (await provider.getBlockNumber()) - receipt.blockNumber + 1;
    } catch (e) {
      throw new PointsApiError("CHAIN_UNAVAILABLE", `no receipt for ${hash}: ${(e as Error).message}`, {
        details: { hash },
        cause: e,
      });
    }
    if (receipt && (confirmations <= 1 || mined >= confirmations)) {
      if (receipt.status !== 1) throw reverted(hash, receipt, undefined);
      return receipt;
    }
    if (Date.now() + delay > deadline) {
      throw new PointsApiError("CHAIN_UNAVAILABLE", `no receipt for ${hash} within ${timeoutMs} ms`, {
        details: { hash, state: "broadcast" },
      });
    }
    await sleep(delay, opts.signal);
    stopIfAborted(opts.signal, "broadcast", hash);
  }
}

export const reverted = (hash: string, receipt: TransactionReceipt | null, cause: unknown) =>
  new PointsApiError("TX_REVERTED", `transaction ${hash} was mined but failed`, {
    details: { hash, blockNumber: receipt?.blockNumber, gasUsed: receipt?.gasUsed.toString() },
    cause,
  });
