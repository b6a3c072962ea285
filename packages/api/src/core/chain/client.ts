import { Contract, JsonRpcProvider, getBigInt, getNumber, type FeeData } from "ethers";
import { LRUCache } from "lru-cache";
import { isRpcUnreachable } from "@points/contracts/program";
import type { ContractName } from "@points/schema";
import type { ChainConfig } from "../config/env.js";
import { ApiError } from "../errors.js";
import { checksummed } from "./address.js";
import { INTERFACES } from "./contracts.js";
import { rpcProvider } from "./rpc.js";

/**
 * One configured chain. Requests made in the same tick go out as one JSON-RPC batch; the
 * chain id is checked at start and before each deploy, not per request; fee data is cached for one block time, so a burst of
 * builds costs one fee lookup.
 */
export class ChainClient {
  readonly provider: JsonRpcProvider;
  private fees?: { at: number; value: Promise<FeeData> };
  // Contract objects bound to this provider, reused across requests (no per-request setup).
  private readonly contracts = new Map<string, Contract>();
  private readonly immutables = new Map<string, Promise<unknown>>();
  // Signers' code (Safe detection on every build), bounded: any caller may name any `from`.
  private readonly codes = new LRUCache<string, Promise<string>>({ max: 10_000 });

  constructor(
    readonly config: ChainConfig,
    timeoutMs: number,
  ) {
    this.provider = rpcProvider(config, timeoutMs, { batchMaxCount: 100, batchStallTime: 2 });
  }

  get chainId(): bigint {
    return BigInt(this.config.chainId);
  }

  /** maxFeePerGas and maxPriorityFeePerGas, cached for one block time. */
  feeData(): Promise<FeeData> {
    const now = Date.now();
    if (!this.fees || now - this.fees.at >= this.config.blockTimeMs) {
      const value = this.provider.getFeeData().catch((e) => {
        this.fees = undefined;
        throw e;
      });
      this.fees = { at: now, value };
    }
    return this.fees.value;
  }

  /**
   * The next nonce of `address` at `tag`, asked of the node as is: ethers' provider would copy
   * the request and checksum the address again (docs/architecture.md#cpu-per-request). Errors
   * are the provider's own.
   */
  async nonce(address: string, tag: "pending" | "latest"): Promise<number> {
    return getNumber((await this.provider.send("eth_getTransactionCount", [address.toLowerCase(), tag])) as string);
  }

  /**
   * The gas `tx` takes, simulated at the latest block, asked of the node as is; a revert is the
   * provider's CALL_EXCEPTION with the revert data, as from `provider.estimateGas`.
   */
  async estimateGas(tx: { from: string; to: string; data: string }): Promise<bigint> {
    const request = { from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), data: tx.data.toLowerCase() };
    return getBigInt((await this.provider.send("eth_estimateGas", [request])) as string);
  }

  /**
   * The code at `address`. A contract's code is kept (a Safe's proxy code never changes); no code,
   * and an EIP-7702 delegation (which its owner may change or clear), are kept for one block time
   * only. Failures are not kept. See docs/architecture.md#safe-multisig.
   */
  code(address: string): Promise<string> {
    const key = checksummed(address);
    const known = this.codes.get(key);
    if (known) return known;
    const value = this.provider.getCode(key).then(
      (code) => {
        if (code === "0x" || code.toLowerCase().startsWith(EIP7702_DESIGNATOR)) {
          this.codes.set(key, value, { ttl: Math.max(1, this.config.blockTimeMs) });
        }
        return code;
      },
      (e) => {
        this.codes.delete(key);
        throw e;
      },
    );
    this.codes.set(key, value);
    return value;
  }

  /** The contract at `address` with the parsed ABI of `name`, created once per chain. */
  contract(name: ContractName | "asset", address: string): Contract {
    const key = `${name}:${checksummed(address)}`;
    let c = this.contracts.get(key);
    if (!c) {
      c = new Contract(key.slice(name.length + 1), INTERFACES[name], this.provider);
      this.contracts.set(key, c);
    }
    return c;
  }

  /**
   * A value the chain can never change once `keep(value)` holds (an asset's vault once
   * registered, a token's decimals): read once, then served from memory. Failures are not kept.
   */
  immutable<T>(key: string, read: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const known = this.immutables.get(key) as Promise<T> | undefined;
    if (known) return known;
    const value = read().then(
      (v) => {
        if (!keep(v)) this.immutables.delete(key);
        return v;
      },
      (e) => {
        this.immutables.delete(key);
        throw e;
      },
    );
    this.immutables.set(key, value);
    return value;
  }

  destroy() {
    this.provider.destroy();
  }
}

// The code of an account that delegates under EIP-7702 starts with these three bytes.
const EIP7702_DESIGNATOR = "0xef0100";

/** Maps transport failures (refused, timeout, bad gateway) to CHAIN_UNAVAILABLE; rethrows the rest. */
export function chainUnavailable(e: unknown, chain: ChainConfig): never {
  if (isRpcUnreachable(e)) {
    throw new ApiError("CHAIN_UNAVAILABLE", `chain ${chain.chainId} (${chain.name}) did not answer`, undefined, {
      cause: e,
    });
  }
  throw e;
}

/** Every configured chain by id. */
export class Chains {
  private readonly clients = new Map<string, ChainClient>();

  constructor(configs: ChainConfig[], timeoutMs: number) {
    for (const c of configs) this.clients.set(String(c.chainId), new ChainClient(c, timeoutMs));
  }

  get(chainId: string | number | bigint): ChainClient {
    const client = this.clients.get(String(chainId));
    if (!client) throw new ApiError("INVALID_INPUT", `chain ${chainId} is not configured on this server`);
    return client;
  }

  has(chainId: string | number | bigint): boolean {
    return this.clients.has(String(chainId));
  }

  list(): ChainConfig[] {
    return [...this.clients.values()].map((c) => c.config);
  }

  destroy() {
    for (const c of this.clients.values()) c.destroy();
  }
}
