import {
  AbstractSigner,
  copyRequest,
  getBytes,
  hashMessage,
  resolveAddress,
  Transaction,
  TypedDataEncoder,
  type Provider,
  type TransactionLike,
  type TransactionRequest,
  type TypedDataDomain,
  type TypedDataField,
} from "ethers";
import { finishSignature, type DigestSigner } from "./signer.js";
import { withinTimeout } from "./errors.js";

/** What signs the engine's transactions: the executor's ExecutorWallet (tests may give an ethers Wallet). */
export interface TxSigner {
  readonly address: string;
  signTransaction(tx: TransactionRequest): Promise<string>;
}

/**
 * An ethers signer over any DigestSigner: every signature (transactions, messages, typed data)
 * goes through finishSignature, bounded by the signer's timeout (SIGNER_TIMEOUT).
 */
export class ExecutorWallet extends AbstractSigner {
  readonly address: string;

  constructor(
    readonly key: DigestSigner,
    readonly timeoutMs: number,
    provider: Provider | null = null,
  ) {
    super(provider);
    this.address = key.address;
  }

  getAddress(): Promise<string> {
    return Promise.resolve(this.address);
  }

  connect(provider: Provider | null): ExecutorWallet {
    return new ExecutorWallet(this.key, this.timeoutMs, provider);
  }

  /** Signs a digest as the executor: normalized, checked to recover to its address. */
  async signDigest(digest: string | Uint8Array) {
    const bytes = getBytes(digest);
    const raw = await withinTimeout(this.key.signDigest(bytes), this.timeoutMs, `signing with ${this.key.describe}`);
    return finishSignature(bytes, raw, this.address);
  }

  async signTransaction(transaction: TransactionRequest): Promise<string> {
    // ethers' sendTransaction hands over a Transaction, whose fields are getters a spread would
    // drop (an empty transaction of chain id 0 would be signed): copied out as ethers' Wallet does.
    const request = copyRequest(transaction);
    const { to, from } = await resolveTx(request, this.provider);
    const tx = Transaction.from({ ...(request as TransactionLike<string>), to, from: undefined });
    if (from != null && from.toLowerCase() !== this.address.toLowerCase())
      throw new Error(`transaction from ${from} given to the signer of ${this.address}`);
    tx.signature = await this.signDigest(tx.unsignedHash);
    return tx.serialized;
  }

  async signMessage(message: string | Uint8Array): Promise<string> {
    return (await this.signDigest(hashMessage(message))).serialized;
  }

  async signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string> {
    return (await this.signDigest(TypedDataEncoder.hash(domain, types, value))).serialized;
  }
}

async function resolveTx(request: TransactionRequest, provider: Provider | null) {
  const to = request.to == null ? null : await resolveAddress(request.to, provider);
  const from = request.from == null ? null : await resolveAddress(request.from, provider);
  return { to, from };
}
