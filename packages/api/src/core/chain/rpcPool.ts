import { FetchRequest, type FetchGetUrlFunc, type GetUrlResponse as FetchResponse } from "ethers";
import type { ChainConfig } from "../config/env.js";
import { ApiError } from "../errors.js";
import { doubling, jittered } from "../backoff.js";

/**
 * How an endpoint of a chain stands; `refused`: it answered another chain id at its last check
 * (it is asked again every `chainIdCheckMs` and comes back when it answers the right one).
 */
export type EndpointState = "unchecked" | "healthy" | "backoff" | "refused";

export interface EndpointView {
  index: number;
  state: EndpointState;
  failures: number;
  /** Why it is backing off or refused (never the URL: it may hold credentials). */
  reason: string | null;
}

/** `stale`: the connection failed since the last check (a node restarted or swapped behind the URL). */
type Endpoint = EndpointView & { url: string; until: number; stale: boolean; checking?: Promise<void> };

/** The chain's endpoints all answer another chain id: nothing is built, read or sent (503). */
export const chainMismatch = (chain: ChainConfig, served?: bigint) =>
  new ApiError(
    "CHAIN_MISMATCH",
    `chain ${chain.chainId} (${chain.name}): no RPC endpoint serves this chain right now; nothing was built or sent`,
    served === undefined ? undefined : { served: String(served) },
  );

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 30_000;
/** The longest one request waits for an endpoint out of backoff before it fails. */
const WAIT_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retry-After in ms (seconds or an HTTP date), if the answer names one. */
function retryAfter(res: FetchResponse): number | undefined {
  const v = res.headers["retry-after"];
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * The RPC endpoints of one chain (see docs/architecture.md#transaction-engine): requests go to
 * the first usable endpoint in configured order; a 429, a 5xx, a timeout or a dropped
 * connection puts that endpoint in exponential backoff (Retry-After honoured) and the request
 * moves on to the next. Every endpoint's chain id is checked before it serves anything, again
 * after its connection failed (a reconnect) and every `chainIdCheckMs` (default 10 s): an
 * endpoint of another chain is taken out (reported through `onRefused`) until a later check finds
 * it right; with none right, requests fail with CHAIN_MISMATCH (docs/architecture.md#nodes-and-networks).
 */
export class RpcPool {
  readonly endpoints: Endpoint[];
  private readonly send: FetchGetUrlFunc = FetchRequest.createGetUrlFunc();
  private timer?: NodeJS.Timeout;
  /** The chain id a refused endpoint last answered, named when a caller asks which chain it serves. */
  private served?: bigint;

  constructor(
    readonly chain: ChainConfig,
    private readonly timeoutMs: number,
    private readonly onRefused: (index: number, reported: bigint) => void = (i, id) =>
      console.error(`chain ${chain.chainId}: RPC endpoint #${i} serves chain ${id}; it is refused`),
  ) {
    const urls = [chain.rpcUrl, ...(chain.rpcUrls ?? [])];
    this.endpoints = urls.map((url, index) => ({
      url,
      index,
      state: "unchecked",
      failures: 0,
      reason: null,
      until: 0,
      stale: false,
    }));
  }

  /** Asks every endpoint again every `chainIdCheckMs` from the first request on (until {@link stop}). */
  private startChecks(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.checkAll(), this.chain.chainIdCheckMs ?? 10_000);
    this.timer.unref();
  }

  /** Stops the periodic checks (they start again with the next request). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  view(): EndpointView[] {
    return this.endpoints.map(({ index, state, failures, reason }) => ({ index, state, failures, reason }));
  }

  /** Whether every endpoint answered another chain at its last check. */
  refused(): boolean {
    return this.endpoints.every((e) => e.state === "refused");
  }

  /** Asks every endpoint now; CHAIN_MISMATCH when none serves the chain (before a destructive step). */
  async assertServes(): Promise<void> {
    await this.checkAll();
    if (this.refused()) throw chainMismatch(this.chain, this.served);
  }

  /** Checks every endpoint's chain id now, refused ones included (at boot, then periodically). */
  async checkAll(): Promise<void> {
    await Promise.all(this.endpoints.map((e) => this.check(e, true)));
  }

  /**
   * The getUrlFunc of a FetchRequest whose URL is only a label (src/chain/rpc.ts). `transport`
   * sends one request to the endpoint URL it carries (the ledger's linear body reader); it
   * must not copy that URL into its errors. Chain id checks use the default transport.
   */
  getUrlFunc(transport: FetchGetUrlFunc = this.send): FetchGetUrlFunc {
    // One endpoint: no failover or backoff (the callers' own retries apply), but its chain id is checked.
    if (this.endpoints.length === 1) {
      const only = this.endpoints[0];
      return async (req, signal) => {
        this.startChecks();
        await this.check(only, false);
        if (only.state === "refused") throw chainMismatch(this.chain, this.served);
        const real = req.clone();
        real.url = only.url;
        try {
          return await transport(real, signal);
        } catch (err) {
          only.stale = true;
          throw err;
        }
      };
    }
    return async (req, signal) => {
      this.startChecks();
      const deadline = Date.now() + WAIT_MAX_MS;
      let last: unknown = new Error(`chain ${this.chain.chainId}: no RPC endpoint is usable`);
      for (;;) {
        for (const e of this.usable()) {
          try {
            await this.check(e, false);
            if (e.state === "refused") continue;
            const real = req.clone();
            real.url = e.url;
            const res = await transport(real, signal);
            if (res.statusCode === 429 || res.statusCode >= 500) {
              this.fail(e, `HTTP ${res.statusCode}`, retryAfter(res));
              last = res;
              continue;
            }
            this.ok(e);
            return res;
          } catch (err) {
            if (signal?.cancelled) throw err;
            this.fail(e, (err as { code?: string }).code ?? "unreachable");
            last = err;
          }
        }
        if (this.endpoints.every((e) => e.state === "refused")) throw chainMismatch(this.chain, this.served);
        const next = Math.min(...this.endpoints.filter((e) => e.state === "backoff").map((e) => e.until));
        if (!Number.isFinite(next) || next > deadline) break;
        await sleep(Math.max(10, next - Date.now()));
      }
      // The last HTTP answer goes back to ethers as is (its error names the status); otherwise the error.
      if (last && typeof last === "object" && "statusCode" in last) return last as FetchResponse;
      throw last;
    };
  }

  /** Endpoints to try now, in configured order: not refused, not backing off. */
  private usable(): Endpoint[] {
    const now = Date.now();
    return this.endpoints.filter((e) => e.state !== "refused" && (e.state !== "backoff" || e.until <= now));
  }

  private ok(e: Endpoint): void {
    if (e.state === "backoff") e.state = "healthy";
    e.failures = 0;
    e.reason = null;
  }

  private fail(e: Endpoint, reason: string, waitMs?: number): void {
    e.failures++;
    e.state = "backoff";
    e.stale = true;
    e.reason = reason;
    e.until = Date.now() + (waitMs ?? jittered(doubling(e.failures, BACKOFF_MIN_MS, BACKOFF_MAX_MS), 0.75, 1.25));
  }

  /** Asks the endpoint its chain id: before its first use, after a failed connection, or when `force`. */
  private check(e: Endpoint, force: boolean): Promise<void> {
    if (!force && e.state !== "unchecked" && !e.stale) return Promise.resolve();
    e.checking ??= (async () => {
      try {
        const req = new FetchRequest(e.url);
        req.timeout = this.timeoutMs;
        req.body = { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] };
        req.setHeader("content-type", "application/json");
        const res = await this.send(req, undefined);
        if (res.statusCode !== 200) throw Object.assign(new Error(`HTTP ${res.statusCode}`), { res });
        const reported = BigInt((JSON.parse(Buffer.from(res.body!).toString("utf8")) as { result: string }).result);
        e.stale = false;
        if (reported !== BigInt(this.chain.chainId)) {
          const was = e.state;
          e.state = "refused";
          e.reason = `serves chain ${reported}, not ${this.chain.chainId}`;
          this.served = reported;
          if (was !== "refused") this.onRefused(e.index, reported);
          return;
        }
        if (e.state === "refused")
          console.error(`chain ${this.chain.chainId}: RPC endpoint #${e.index} serves it again`);
        this.ok(e);
        e.state = "healthy";
      } catch (err) {
        const res = (err as { res?: FetchResponse }).res;
        this.fail(e, res ? `HTTP ${res.statusCode}` : "unreachable", res ? retryAfter(res) : undefined);
      } finally {
        e.checking = undefined;
      }
    })();
    return e.checking;
  }
}

const pools = new WeakMap<ChainConfig, RpcPool>();

/** The one pool of a configured chain (every provider of the chain shares its health view). */
export function rpcPool(chain: ChainConfig, timeoutMs: number): RpcPool {
  let pool = pools.get(chain);
  if (!pool) pools.set(chain, (pool = new RpcPool(chain, timeoutMs)));
  return pool;
}
