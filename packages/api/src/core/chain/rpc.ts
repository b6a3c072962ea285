import {
  FetchRequest,
  JsonRpcProvider,
  Network,
  type FetchResponse,
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

/**
 * JsonRpcProvider whose request and response bodies are encoded and decoded natively: ethers
 * does both one character at a time, a bulk plan's simulations post a batch of about 1.3 MB
 * (docs/rules.md#bulk-requests), and an onboarding task reads each release contract's code back.
 * Everything else is ethers' own.
 */
class RpcProvider extends JsonRpcProvider {
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

/** The response's JSON; a body that is not UTF-8 JSON fails as ethers' own `bodyJson` does. */
function parseBody(response: FetchResponse): JsonRpcResult | JsonRpcResult[] {
  try {
    return JSON.parse(fromUtf8.decode(response.body ?? new Uint8Array())) as JsonRpcResult | JsonRpcResult[];
  } catch {
    return response.bodyJson as JsonRpcResult | JsonRpcResult[];
  }
}

/** A provider on the chain's RPC: the chain id is fixed here and checked by {@link assertChainId}. */
export function rpcProvider(
  chain: ChainConfig,
  timeoutMs: number,
  options: { batchMaxCount?: number; batchStallTime?: number } = {},
): JsonRpcProvider {
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
