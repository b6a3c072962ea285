import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { JsonRpcProvider, Network, type FetchGetUrlFunc } from "ethers";
import pRetry from "p-retry";
import type { Logger } from "pino";
import type { ChainConfig } from "../config/env.js";
import { rpcRequest } from "../chain/rpc.js";
import { redactingBodies } from "../chain/redactBody.js";
import { rpcPool } from "../chain/rpcPool.js";

export interface RetryOptions {
  /** Attempts after the first one. */
  retries: number;
  /** First wait; doubles per attempt (with jitter) up to maxMs. */
  minMs: number;
  maxMs: number;
}

/** A raw log as eth_getLogs answers it. */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  /** The block's time, when the node includes it (recent nodes do; saves a header per block). */
  blockTimestamp?: string;
  removed?: boolean;
}

export interface RpcBlock {
  number: string;
  hash: string;
  timestamp: string;
}

/** A header as eth_getBlockByNumber answers it, with what links it to its parent and sums up its logs. */
export interface RpcHeader extends RpcBlock {
  parentHash: string;
  logsBloom?: string;
  /** The block's transaction hashes (asked without bodies). */
  transactions?: string[];
}

/**
 * Sends a request to the endpoint the chain's RPC pool chose (the request's URL) and reads the
 * answer in linear time. ethers' own reader copies the whole body once per chunk received,
 * quadratic in the tens of megabytes of a backfill's eth_getLogs answers. The URL may hold
 * credentials: errors never carry it (src/chain/rpc.ts).
 */
const linearGetUrl: FetchGetUrlFunc = (req, signal) =>
  new Promise((resolve, reject) => {
    const target = new URL(req.url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const r = send(target, { method: req.method, headers: req.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          statusCode: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? "",
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
          ),
          body: new Uint8Array(Buffer.concat(chunks)),
        }),
      );
    });
    r.on("error", (e: NodeJS.ErrnoException) =>
      reject(Object.assign(new Error("request to the chain's RPC failed"), { code: e.code ?? "unreachable" })),
    );
    signal?.addListener(() => r.destroy());
    r.end(req.body ? Buffer.from(req.body) : undefined);
  });

/**
 * The indexer's JSON-RPC: the chain's RPC endpoints behind the credential-hiding request
 * (src/chain/rpc.ts) and the chain's one endpoint pool, shared with the transaction engine
 * (src/core/chain/rpcPool.ts: failover in configured order, backoff on 429/5xx/timeouts, chain id
 * checked on each endpoint before it serves), requests of one tick batched, every call retried with exponential
 * backoff and jitter on any failure (a refused connection, a timeout, HTTP 429, a JSON-RPC
 * error). ethers' own 429 throttle is off so the backoff here is the only one.
 */
export class LedgerRpc {
  readonly provider: JsonRpcProvider;

  constructor(
    chain: ChainConfig,
    timeoutMs: number,
    private readonly retry: RetryOptions,
    private readonly logger: Logger,
    private readonly signal?: AbortSignal,
  ) {
    const request = rpcRequest(chain, timeoutMs);
    request.getUrlFunc = redactingBodies(chain, rpcPool(chain, timeoutMs).getUrlFunc(linearGetUrl));
    request.setThrottleParams({ maxAttempts: 1 });
    this.provider = new JsonRpcProvider(request, Network.from(chain.chainId), {
      staticNetwork: true,
      cacheTimeout: -1,
      batchMaxCount: 50,
      batchStallTime: 0,
    });
  }

  send<T>(method: string, params: unknown[]): Promise<T> {
    return pRetry(() => this.provider.send(method, params) as Promise<T>, {
      retries: this.retry.retries,
      minTimeout: this.retry.minMs,
      maxTimeout: this.retry.maxMs,
      factor: 2,
      randomize: true,
      signal: this.signal,
      onFailedAttempt: (e) => {
        this.logger.debug({ method, attempt: e.attemptNumber, err: e.message }, "ledger RPC call failed; retrying");
      },
    });
  }

  async head(): Promise<number> {
    return Number(await this.send<string>("eth_blockNumber", []));
  }

  /** The newest block's header: the head, and what an idle indexer needs to know of it (workers/ledger/tip.ts). */
  async latest(): Promise<RpcHeader> {
    const h = await this.send<RpcHeader | null>("eth_getBlockByNumber", ["latest", false]);
    if (!h) throw Object.assign(new Error("the node has no latest block"), { code: "NO_LATEST_BLOCK" });
    return h;
  }

  /** The header of block `n`, or null when the chain does not have it (a shorter fork). */
  block(n: number): Promise<RpcBlock | null> {
    return this.send<RpcBlock | null>("eth_getBlockByNumber", ["0x" + n.toString(16), false]);
  }

  getLogs(addresses: string[], from: number, to: number): Promise<RpcLog[]> {
    return this.send<RpcLog[]>("eth_getLogs", [
      { address: addresses, fromBlock: "0x" + from.toString(16), toBlock: "0x" + to.toString(16) },
    ]);
  }

  destroy(): void {
    this.provider.destroy();
  }
}
