import {
  getAddress,
  getCreateAddress,
  isError,
  keccak256,
  type Provider,
  type Signer,
  type TransactionReceipt,
  type TransactionRequest,
  type TransactionResponse,
} from "ethers";
import { isDevChainId, isRpcUnreachable } from "@points/contracts/program";
import { decodeRevert, revertValues } from "@points/contracts/program/abi";
import { DeployerError } from "./errors.js";
import type { TxSender } from "./sender.js";

/** What the caller tells the deployer about the chain it works on. */
export type ChainInfo = { chainId: bigint; name?: string; dev?: boolean };

/** Timeouts of every chain call; a dead RPC becomes CHAIN_UNAVAILABLE instead of a hang. */
export interface ChainOptions {
  /** Per JSON-RPC call (default 30 s). */
  timeoutMs?: number;
  /** Waiting for one receipt or for the signer's pending transactions (default 5 min). */
  receiptTimeoutMs?: number;
  /** Polling interval while waiting (default 250 ms). */
  pollMs?: number;
  /**
   * The most gas one transaction may be given (unset: no cap). A transaction over it is never
   * signed: GAS_CAP; batches are checked whole before their first transaction goes out.
   */
  maxGasPerTx?: bigint;
  /** A transaction engine that owns the signer's nonces; the deployer sends through it when given. */
  sender?: TxSender;
}

/** ERC-1967 implementation slot: keccak256("eip1967.proxy.implementation") - 1. */
export const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

export function isDevChain(chain: ChainInfo): boolean {
  return chain.dev ?? isDevChainId(chain.chainId);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Turns a provider or contract failure into a DeployerError where its meaning is known. */
export function translateError(e: unknown, what: string): unknown {
  if (e instanceof DeployerError) return e;
  if (isError(e, "INSUFFICIENT_FUNDS")) {
    return new DeployerError("INSUFFICIENT_FUNDS", `${what}: the signer cannot pay for gas`, { cause: e });
  }
  if (isRpcUnreachable(e)) {
    return new DeployerError("CHAIN_UNAVAILABLE", `${what}: the RPC endpoint did not answer`, { cause: e });
  }
  if (isError(e, "CALL_EXCEPTION")) {
    const decoded = decodeRevert(e.data ?? undefined, "programFactory");
    const args = decoded ? revertValues(decoded) : [];
    if (decoded?.name === "BrandTaken") {
      return new DeployerError("BRAND_TAKEN", `brand: "${String(args[0])}" already has a program on this chain`, {
        cause: e,
      });
    }
    if (decoded?.name === "AccessControlEnforcedDefaultAdminDelay") {
      const when = new Date(Number(args[0]) * 1000).toISOString();
      return new DeployerError("TOO_EARLY", `${what}: the admin transfer can be accepted after ${when}`, {
        cause: e,
        details: { schedule: Number(args[0]), acceptAfter: when },
      });
    }
    if (decoded?.name === "AccessControlUnauthorizedAccount") {
      return new DeployerError("WRONG_KEY", `${what}: account ${String(args[0])} lacks role ${String(args[1])}`, {
        cause: e,
      });
    }
    const reason = decoded ? `${decoded.name}(${args.map(String).join(", ")})` : (e.shortMessage ?? "reverted");
    return new DeployerError("TRANSACTION_FAILED", `${what}: reverted with ${reason}`, {
      cause: e,
      details: decoded ? { error: decoded.name, args: args.map(String) } : undefined,
    });
  }
  return e;
}

/**
 * A provider wrapper: every call has a timeout and translated errors. The deployer never calls
 * a provider or a contract except through `call`.
 */
export class Chain {
  readonly timeoutMs: number;
  readonly receiptTimeoutMs: number;
  readonly pollMs: number;
  readonly maxGasPerTx: bigint | undefined;

  constructor(
    readonly provider: Provider,
    opts: ChainOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.receiptTimeoutMs = opts.receiptTimeoutMs ?? 300_000;
    this.pollMs = opts.pollMs ?? 250;
    this.maxGasPerTx = opts.maxGasPerTx;
  }

  /** Throws GAS_CAP when a transaction's gas limit is over the configured cap. */
  assertGasCap(gasLimit: bigint | number | null | undefined, what: string): void {
    if (this.maxGasPerTx === undefined || gasLimit == null) return;
    if (BigInt(gasLimit) > this.maxGasPerTx) {
      throw new DeployerError(
        "GAS_CAP",
        `${what}: needs a gas limit of ${gasLimit}, over the cap of ${this.maxGasPerTx}; nothing was sent`,
        { details: { gasLimit: String(gasLimit), cap: String(this.maxGasPerTx) } },
      );
    }
  }

  static of(runner: Signer | Provider, opts: ChainOptions = {}): Chain {
    const provider = "getTransactionCount" in runner && "getCode" in runner ? (runner as Provider) : runner.provider;
    if (!provider) throw new DeployerError("CHAIN_UNAVAILABLE", "signer: it has no provider attached");
    return new Chain(provider, opts);
  }

  async call<T>(what: string, fn: () => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DeployerError("CHAIN_UNAVAILABLE", `${what}: no answer from the RPC within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (e) {
      throw translateError(e, what);
    } finally {
      clearTimeout(timer);
    }
  }

  async chainId(): Promise<bigint> {
    return (await this.call("getNetwork", () => this.provider.getNetwork())).chainId;
  }

  /** Throws CHAIN_UNAVAILABLE when the RPC serves another chain than the caller named. */
  async assertChainId(info: ChainInfo): Promise<void> {
    const id = await this.chainId();
    if (id !== info.chainId) {
      throw new DeployerError(
        "CHAIN_UNAVAILABLE",
        `chainId: the RPC serves chain ${id}, not ${info.chainId}${info.name ? ` (${info.name})` : ""}`,
      );
    }
  }

  /** The checksummed address of `signer`, once the RPC is known to serve `info`'s chain. */
  async signerOn(info: ChainInfo, signer: Signer): Promise<string> {
    await this.assertChainId(info);
    return this.addressOf(signer);
  }

  /** The checksummed address of `signer`. */
  async addressOf(signer: Signer): Promise<string> {
    return getAddress(await this.call("signer.getAddress", () => signer.getAddress()));
  }

  /** The implementation a proxy runs: its ERC-1967 implementation slot. */
  async implementationOf(proxy: string): Promise<string> {
    const slot = await this.storageAt(proxy, IMPLEMENTATION_SLOT);
    return getAddress("0x" + slot.slice(-40));
  }

  /** The latest block's timestamp (the time contracts see). */
  async now(): Promise<number> {
    const latest = await this.call("getBlock(latest)", () => this.provider.getBlock("latest"));
    return latest?.timestamp ?? Math.floor(Date.now() / 1000);
  }

  /**
   * A raw JSON-RPC call when the provider offers one: ethers caches identical provider requests
   * for 250 ms, which would return a stale nonce or code right after a transaction.
   */
  private raw<T>(method: string, params: unknown[], fallback: () => Promise<T>, map: (v: unknown) => T): Promise<T> {
    const p = this.provider as Provider & { send?: (m: string, p: unknown[]) => Promise<unknown> };
    if (typeof p.send !== "function") return fallback();
    return p.send(method, params).then(map);
  }

  code(address: string, blockTag?: number): Promise<string> {
    const tag = blockTag === undefined ? "latest" : "0x" + blockTag.toString(16);
    return this.call(`getCode(${address})`, () =>
      this.raw("eth_getCode", [address, tag], () => this.provider.getCode(address, blockTag), String),
    );
  }

  async codeHash(address: string): Promise<string> {
    return keccak256(await this.code(address));
  }

  nonce(address: string, tag: "latest" | "pending" | number = "latest"): Promise<number> {
    const rawTag = typeof tag === "number" ? "0x" + tag.toString(16) : tag;
    return this.call(`getTransactionCount(${address})`, () =>
      this.raw(
        "eth_getTransactionCount",
        [address, rawTag],
        () => this.provider.getTransactionCount(address, tag),
        (v) => Number(BigInt(v as string)),
      ),
    );
  }

  balance(address: string): Promise<bigint> {
    return this.call(`getBalance(${address})`, () => this.provider.getBalance(address));
  }

  storageAt(address: string, slot: string): Promise<string> {
    return this.call(`getStorage(${address})`, () =>
      this.raw("eth_getStorageAt", [address, slot, "latest"], () => this.provider.getStorage(address, slot), String),
    );
  }

  async blockNumber(): Promise<number> {
    return this.call("getBlockNumber", () => this.provider.getBlockNumber());
  }

  async feeData(): Promise<Pick<TransactionRequest, "maxFeePerGas" | "maxPriorityFeePerGas" | "gasPrice">> {
    const f = await this.call("getFeeData", () => this.provider.getFeeData());
    if (f.maxFeePerGas != null && f.maxPriorityFeePerGas != null) {
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    }
    return { gasPrice: f.gasPrice ?? 0n };
  }

  /** The most a transaction may cost per gas unit with these fees. */
  static pricePerGas(fees: Pick<TransactionRequest, "maxFeePerGas" | "gasPrice">): bigint {
    return BigInt(fees.maxFeePerGas ?? fees.gasPrice ?? 0n);
  }

  send(signer: Signer, tx: TransactionRequest, what: string): Promise<TransactionResponse> {
    this.assertGasCap(tx.gasLimit as bigint | undefined, what);
    return this.call(what, () => signer.sendTransaction(tx));
  }

  /**
   * Waits for `hash` to be mined; a reverted transaction is TRANSACTION_FAILED. It polls the
   * receipt itself: ethers' `waitForTransaction` compares the receipt with a block number read
   * before it, and when the block lands in between it waits for a next block, which a dev node
   * that mines per transaction never makes (a 5-minute hang seen on anvil under load).
   */
  async receipt(hash: string, what: string): Promise<TransactionReceipt> {
    const label = `${what} (waiting for ${hash})`;
    const deadline = Date.now() + this.receiptTimeoutMs;
    for (;;) {
      const r = await this.call(label, () => this.provider.getTransactionReceipt(hash));
      if (r) {
        if (r.status !== 1) throw new DeployerError("TRANSACTION_FAILED", `${what}: transaction ${hash} reverted`);
        return r;
      }
      if (Date.now() > deadline) {
        throw new DeployerError(
          "TRANSACTION_FAILED",
          `${what}: transaction ${hash} was not mined within ${this.receiptTimeoutMs} ms`,
        );
      }
      await sleep(this.pollMs);
    }
  }

  /**
   * Waits until every transaction `from` has sent (pending) is mined, so that what the chain
   * says afterwards is final: a transaction sent before a crash either landed or never will.
   */
  async settle(from: string): Promise<number> {
    const pending = await this.nonce(from, "pending");
    const deadline = Date.now() + this.receiptTimeoutMs;
    for (;;) {
      const latest = await this.nonce(from, "latest");
      if (latest >= pending) return latest;
      if (Date.now() > deadline) {
        throw new DeployerError(
          "TRANSACTION_FAILED",
          `${from} has ${pending - latest} pending transaction(s) that did not land within ${this.receiptTimeoutMs} ms`,
        );
      }
      await sleep(this.pollMs);
    }
  }

  /**
   * The hash and block of the transaction `from` sent with `nonce`, found by a binary search on
   * the account's nonce history (needs a node that serves historical state; undefined if not).
   */
  async findTransaction(from: string, nonce: number): Promise<{ hash: string; blockNumber: number } | undefined> {
    try {
      let lo = 0;
      let hi = await this.blockNumber();
      if ((await this.nonce(from, hi)) <= nonce) return undefined;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if ((await this.nonce(from, mid)) > nonce) hi = mid;
        else lo = mid + 1;
      }
      const block = await this.call(`getBlock(${lo})`, () => this.provider.getBlock(lo, true));
      const tx = block?.prefetchedTransactions.find(
        (t) => t.from.toLowerCase() === from.toLowerCase() && t.nonce === nonce,
      );
      return tx ? { hash: tx.hash, blockNumber: lo } : undefined;
    } catch {
      return undefined;
    }
  }

  static createAddress(from: string, nonce: number): string {
    return getCreateAddress({ from, nonce });
  }
}
