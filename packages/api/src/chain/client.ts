import { Contract, JsonRpcProvider, getAddress, type FeeData } from "ethers";
import { isRpcUnreachable } from "@points/contracts/program";
import type { ContractName } from "@points/schema";
import type { ChainConfig } from "../config/env.js";
import { ApiError } from "../errors.js";
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

  /** The contract at `address` with the parsed ABI of `name`, created once per chain. */
  contract(name: ContractName | "asset", address: string): Contract {
    const key = `${name}:${getAddress(address)}`;
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
