import { FetchRequest, JsonRpcProvider, Network, type FeeData } from "ethers";
import type { ChainConfig } from "../config/env.js";
import { ApiError } from "../errors.js";

/**
 * One configured chain. Requests made in the same tick go out as one JSON-RPC batch; the
 * chain id is static (never re-detected); fee data is cached for one block time, so a burst of
 * builds costs one fee lookup.
 */
export class ChainClient {
  readonly provider: JsonRpcProvider;
  private fees?: { at: number; value: Promise<FeeData> };

  constructor(
    readonly config: ChainConfig,
    timeoutMs: number,
  ) {
    const request = new FetchRequest(config.rpcUrl);
    request.timeout = timeoutMs;
    this.provider = new JsonRpcProvider(request, Network.from(config.chainId), {
      staticNetwork: true,
      batchMaxCount: 100,
      batchStallTime: 2,
      // ethers otherwise replays identical calls for 250 ms: a stale pending nonce after a
      // broadcast would build a transaction that can never land.
      cacheTimeout: -1,
    });
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

  destroy() {
    this.provider.destroy();
  }
}

/** Maps transport failures (refused, timeout, bad gateway) to CHAIN_UNAVAILABLE; rethrows the rest. */
export function chainUnavailable(e: unknown, chain: ChainConfig): never {
  const code = (e as { code?: string }).code;
  if (code === "TIMEOUT" || code === "NETWORK_ERROR" || code === "SERVER_ERROR" || code === "UNKNOWN_ERROR") {
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
