import {
  FetchRequest,
  JsonRpcProvider,
  makeError,
  Network,
  type FetchResponse,
  type JsonRpcError,
  type JsonRpcPayload,
  type JsonRpcResult,
} from "ethers";
import type { ChainConfig } from "../config/env.js";
import { ApiError } from "../errors.js";
import { rpcPool } from "./rpcPool.js";
import { redactingBodies } from "./redactBody.js";

/** What error messages, logs and task records show instead of a chain's RPC URL. */
export const rpcLabel = (chainId: number) => `https://rpc.redacted/chain/${chainId}`;

/**
 * A request for a chain's RPC that carries only a label as its URL. Hosted RPC URLs hold
 * credentials (user:pass, a key in the path or query) and ethers copies the request URL into
 * its error messages, which reach logs, responses and task records: the real URL is put in
 * only at the moment of sending.
 */
export function rpcRequest(chain: ChainConfig, timeoutMs: number): FetchRequest {
  const request = new FetchRequest(rpcLabel(chain.chainId));
  request.timeout = timeoutMs;
  // Several endpoints: failover, backoff and a chain id check per endpoint (src/core/chain/rpcPool.ts).
  request.getUrlFunc = redactingBodies(chain, rpcPool(chain, timeoutMs).getUrlFunc());
  return request;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

/** One call waiting for its batch: its payload and the bytes it adds to the batch's JSON. */
interface Queued {
  payload: JsonRpcPayload;
  bytes: number;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export interface BatchOptions {
  /** Calls per batch (1: each call alone, at once). */
  batchMaxCount?: number;
  /** How long a call waits for others to join its batch (ms). */
  batchStallTime?: number;
}

/**
 * JsonRpcProvider whose request and response bodies are encoded and decoded natively: ethers
 * does both one character at a time, a bulk plan's simulations post a batch of about 1.3 MB
 * (docs/rules.md#bulk-requests), and an onboarding task reads each release contract's code back.
 * It also forms its batches itself: ethers serialises the whole batch again for every call it
 * adds (quadratic in the batch) and finds each answer by scanning them all; under 50 concurrent
 * builds that was 2% of the API's CPU (docs/architecture.md#cpu-per-request). Batches are cut
 * by the same rules (count, then 1 MB of JSON) and answers and errors are ethers' own.
 */
class RpcProvider extends JsonRpcProvider {
  #queue: Queued[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextId = 1;
  readonly #maxCount: number;
  readonly #stallMs: number;

  constructor(
    request: FetchRequest,
    network: Network,
    options: BatchOptions & { staticNetwork: true; cacheTimeout: number },
  ) {
    super(request, network, options);
    this.#maxCount = options.batchMaxCount ?? 100;
    this.#stallMs = this.#maxCount === 1 ? 0 : (options.batchStallTime ?? 10);
  }

  override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
    await this._start();
    if (this.destroyed) throw cancelled(method);
    const payload: JsonRpcPayload = { method, params, id: this.#nextId++, jsonrpc: "2.0" };
    return new Promise((resolve, reject) => {
      this.#queue.push({ payload, bytes: JSON.stringify(payload).length + 1, resolve, reject });
      this.#timer ??= setTimeout(() => this.#drain(), this.#stallMs);
    });
  }

  override destroy(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const q of this.#queue.splice(0)) q.reject(cancelled(q.payload.method));
    super.destroy();
  }

  #drain(): void {
    this.#timer = undefined;
    const queue = this.#queue;
    this.#queue = [];
    for (let start = 0; start < queue.length;) {
      let end = start + 1;
      let bytes = queue[start]!.bytes + 1;
      while (end < queue.length && end - start < this.#maxCount && bytes + queue[end]!.bytes <= BATCH_MAX_BYTES)
        bytes += queue[end++]!.bytes;
      void this.#sendBatch(queue.slice(start, end));
      start = end;
    }
  }

  async #sendBatch(batch: Queued[]): Promise<void> {
    let results: JsonRpcResult[];
    try {
      results = await this._send(batch.length === 1 ? batch[0]!.payload : batch.map((q) => q.payload));
    } catch (error) {
      for (const q of batch) q.reject(error);
      return;
    }
    const byId = new Map(results.map((r) => [r.id, r]));
    for (const { payload, resolve, reject } of batch) {
      if (this.destroyed) {
        reject(cancelled(payload.method));
        continue;
      }
      const answer = byId.get(payload.id);
      if (answer === undefined) {
        // The node failed us in unexpected ways.
        const error = makeError("missing response for request", "BAD_DATA", { value: results, info: { payload } });
        void this.emit("error", error);
        reject(error);
      } else if ("error" in answer) reject(this.getRpcError(payload, answer as unknown as JsonRpcError));
      else resolve(answer.result);
    }
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const request = this._getConnection();
    request.body = utf8.encode(JSON.stringify(payload));
    request.setHeader("content-type", "application/json");
    const response = await request.send();
    response.assertOk();
    const body = parseBody(response);
    return Array.isArray(body) ? body : [body];
  }
}

/** ethers' limit on a batch's JSON (its `batchMaxSize` default). */
const BATCH_MAX_BYTES = 1 << 20;

const cancelled = (method: string) =>
  makeError("provider destroyed; cancelled request", "UNSUPPORTED_OPERATION", { operation: method });

/** The response's JSON; a body that is not UTF-8 JSON fails as ethers' own `bodyJson` does. */
function parseBody(response: FetchResponse): JsonRpcResult | JsonRpcResult[] {
  try {
    return JSON.parse(fromUtf8.decode(response.body ?? new Uint8Array())) as JsonRpcResult | JsonRpcResult[];
  } catch {
    return response.bodyJson as JsonRpcResult | JsonRpcResult[];
  }
}

/** A provider on the chain's RPC: the chain id is fixed here and checked by {@link assertChainId}. */
export function rpcProvider(chain: ChainConfig, timeoutMs: number, options: BatchOptions = {}): JsonRpcProvider {
  return new RpcProvider(rpcRequest(chain, timeoutMs), Network.from(chain.chainId), {
    staticNetwork: true,
    // ethers otherwise replays identical calls for 250 ms: a stale pending nonce after a
    // broadcast would build a transaction that can never land.
    cacheTimeout: -1,
    ...options,
  });
}

/**
 * Asks the node which chain it serves. A node that answers for another chain than its
 * configuration says would have the executor sign there (a replayable dev key, a fee paid on
 * the wrong network): refuse.
 */
export async function assertChainId(provider: JsonRpcProvider, chain: ChainConfig): Promise<void> {
  // Through a pool, an endpoint of another chain is refused before this call: name what it serves.
  const reported = await provider.send("eth_chainId", []).then(
    (id: string) => BigInt(id),
    (err: unknown) => {
      const served =
        err instanceof ApiError && err.code === "CHAIN_MISMATCH"
          ? (err.details as { served?: unknown } | undefined)?.served
          : undefined;
      if (typeof served === "string") return BigInt(served);
      throw err;
    },
  );
  if (reported !== BigInt(chain.chainId)) {
    throw new ApiError(
      "INTERNAL",
      `chain ${chain.chainId} (${chain.name}): its RPC serves chain ${reported}; fix CHAINS before anything is signed`,
    );
  }
}
