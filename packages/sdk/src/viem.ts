/**
 * `@points/sdk/viem`: a viem wallet client as an ethers signer, so `send`, `sign`, the issuer
 * and `NonceQueue` take it. A separate entry: the main one never loads ethers' providers.
 */
import {
  AbstractSigner,
  BrowserProvider,
  Transaction,
  getAddress,
  type Provider,
  type Signer,
  type TransactionLike,
  type TransactionRequest,
  type TransactionResponse,
} from "ethers";
import { PointsApiError } from "./errors.js";
import type { Hex, ViemTransactionFields, ViemWalletClient } from "./types.js";

export type { ViemWalletClient, ViemTransactionFields };

/**
 * The wallet client as an ethers signer whose provider is the client's own transport. A local
 * account (a private key) signs the API's exact bytes (checked before they are returned); a
 * JSON-RPC account only sends, with eth_sendTransaction and the same fields.
 */
export function viemSigner(wallet: ViemWalletClient): Signer {
  return new ViemSigner(wallet);
}

class ViemSigner extends AbstractSigner {
  constructor(
    private readonly wallet: ViemWalletClient,
    provider: Provider = new BrowserProvider({ request: (args) => wallet.request(args) }),
  ) {
    super(provider);
  }

  /** Read by the SDK: a local account signs raw bytes. */
  get signsRaw(): boolean {
    return this.wallet.account?.signTransaction !== undefined;
  }

  private account() {
    const account = this.wallet.account;
    if (!account) throw new PointsApiError("WRONG_SIGNER", "the wallet client has no account");
    return account;
  }

  async getAddress(): Promise<string> {
    return getAddress(this.account().address);
  }

  connect(provider: Provider | null): Signer {
    if (!provider) throw new PointsApiError("WRONG_SIGNER", "a viem signer broadcasts through its client");
    return new ViemSigner(this.wallet, provider);
  }

  async signTransaction(request: TransactionRequest): Promise<string> {
    const account = this.account();
    if (!account.signTransaction) {
      throw new PointsApiError("WRONG_SIGNER", "this wallet's account only sends (a JSON-RPC account): use send()");
    }
    const unsigned = Transaction.from(request as TransactionLike<string>);
    const raw = await account.signTransaction(fields(unsigned));
    // Fail closed: what was signed must be the transaction asked for, field for field.
    if (Transaction.from(raw).unsignedHash !== unsigned.unsignedHash) {
      throw new PointsApiError("WRONG_SIGNER", "the wallet signed a transaction other than the one given");
    }
    return raw;
  }

  async sendTransaction(request: TransactionRequest): Promise<TransactionResponse> {
    const hash = await this.wallet.sendTransaction({
      ...fields(Transaction.from(request as TransactionLike<string>)),
      account: this.account(),
      chain: null,
    });
    const sent = await this.provider!.getTransaction(hash);
    if (!sent) throw new PointsApiError("BROADCAST_FAILED", `the node does not know ${hash}`, { details: { hash } });
    return sent;
  }

  signMessage(): Promise<string> {
    return Promise.reject(new PointsApiError("WRONG_SIGNER", "sign messages with the wallet client itself"));
  }

  signTypedData(): Promise<string> {
    return Promise.reject(new PointsApiError("WRONG_SIGNER", "sign typed data with the wallet client itself"));
  }
}

/** An EIP-1559 transaction's fields as viem takes them. */
const fields = (t: Transaction): ViemTransactionFields => ({
  type: "eip1559",
  chainId: Number(t.chainId),
  nonce: t.nonce,
  to: t.to as Hex,
  data: t.data as Hex,
  value: t.value,
  gas: t.gasLimit,
  maxFeePerGas: t.maxFeePerGas ?? 0n,
  maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? 0n,
});
