import { PointsApiError } from "./errors.js";
import type { CallOptions, PreparedTx, RouteEntry, UnsignedTx } from "./types.js";

export interface ClientOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:3000` (route paths start with /api/v1 or /studio/sdk/v1). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; /studio/sdk/v1, role and freeze routes need it. */
  apiKey?: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** Default program (id or Factory address) of routes that take one; a call's own `program` wins. */
  program?: string;
  /** Deadline of every call in milliseconds unless the call sets its own (default 30000). */
  timeoutMs?: number;
  /**
   * Retries of an idempotent call (a read, or a write carrying an Idempotency-Key) after a
   * network error, a 429 (after its Retry-After) or a 502/503/504, with exponential backoff and
   * jitter (default 2; a call's own `maxRetries` wins). A timeout is not retried: `timeoutMs` is
   * the deadline of each call's attempt and of the call. Writes get an Idempotency-Key by default
   * when the client has an API key, so builds are retried too.
   */
  maxRetries?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
/** A Retry-After longer than this is not waited for: the error is the caller's to handle. */
const MAX_RETRY_AFTER_MS = 60_000;
const RETRY_STATUS = new Set([429, 502, 503, 504]);

/** A request to any route, untyped: path parameters, query, JSON body and extra headers. */
export interface RouteInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * callRoute without the transaction helpers: an error's prerequisite is only in its `details`,
 * as the API sent it. It needs no ethers, so a page that only talks to the API (a sign-in page)
 * ships without it; `wrap` is how callRoute makes the prerequisite signable.
 */
export async function fetchRoute(
  opts: ClientOptions,
  route: RouteEntry,
  input?: RouteInput,
  call: CallOptions = {},
  // Async allowed: callRoute loads the transaction helpers only when a prerequisite came.
  wrap: (tx: UnsignedTx) => PreparedTx | undefined | Promise<PreparedTx | undefined> = () => undefined,
): Promise<unknown> {
  const { params, query, body, headers: extra } = input ?? {};
  const url = new URL(opts.baseUrl.replace(/\/+$/, "") + fillPath(route.path, params));
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: route.file ? "text/csv, application/json" : "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  Object.assign(headers, extra);
  const doFetch = opts.fetch ?? globalThis.fetch;
  const ms = call.timeoutMs ?? opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const init = {
    method: route.method.toUpperCase(),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body, (_, v) => (typeof v === "bigint" ? v.toString() : v)),
  };
  // Sending twice is harmless for a read and for a write the API answers by its key.
  const idempotent = route.method === "get" || Object.keys(headers).some((h) => h.toLowerCase() === "idempotency-key");
  const maxRetries = idempotent ? Math.max(0, call.maxRetries ?? opts.maxRetries ?? DEFAULT_MAX_RETRIES) : 0;

  let status: number;
  let text: string;
  let lastRetryAfter: number | undefined;
  for (let attempt = 0; ; attempt++) {
    let retryAfterMs: number | undefined;
    try {
      ({ status, text, retryAfterMs } = await once(doFetch, url, init, ms, call.signal));
    } catch (e) {
      // The caller's abort and the deadline end the call; a refused or reset connection (a stale
      // keep-alive socket) is retried.
      if (attempt >= maxRetries || ((e as PointsApiError).details as { aborted: boolean }).aborted) throw e;
      await pause(backoff(attempt), call.signal);
      continue;
    }
    if (!RETRY_STATUS.has(status) || attempt >= maxRetries) {
      lastRetryAfter = retryAfterMs;
      break;
    }
    if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
      lastRetryAfter = retryAfterMs;
      break;
    }
    await pause(retryAfterMs ?? backoff(attempt), call.signal);
  }
  // A file route's success is the file itself; its errors are the envelope like any route's.
  if (route.file && status >= 200 && status < 300) return text;
  const envelope = parseEnvelope(text);
  if (!envelope) {
    throw new PointsApiError("NETWORK", `${url.origin} answered HTTP ${status} without the API's JSON envelope`, {
      status,
      details: { body: text.slice(0, 200) },
    });
  }
  if (envelope.success) return envelope.data;
  const { code, message, details } = envelope.error;
  throw new PointsApiError(code, message, {
    status,
    details,
    prerequisite: await prerequisiteOf(details, wrap),
    retryAfterMs: lastRetryAfter,
  });
}

/** One attempt under its own deadline; NETWORK (details: aborted, timedOut) when no answer came. */
async function once(
  doFetch: typeof globalThis.fetch,
  url: URL,
  init: RequestInit,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<{ status: number; text: string; retryAfterMs: number | undefined }> {
  // One controller per attempt, aborted by the deadline or the caller's signal, timer cleared at
  // the end (AbortSignal.timeout/any made undici drop connections under load on Node 20).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError"));
  }, ms);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const res = await doFetch(url, { ...init, signal: controller.signal });
    return { status: res.status, text: await res.text(), retryAfterMs: retryAfterOf(res.headers.get("retry-after")) };
  } catch (e) {
    const aborted = controller.signal.aborted;
    const why = aborted ? (timedOut ? `no answer within ${ms} ms` : `the call was aborted`) : (e as Error).message;
    throw new PointsApiError("NETWORK", `could not reach the API at ${url.origin}: ${why}`, {
      cause: e,
      details: { aborted, timedOut },
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** 0.5 s, 1 s, 2 s... capped at 8 s, each drawn between half and all of it (jitter). */
const backoff = (attempt: number) => {
  const ceiling = Math.min(8000, 500 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
};

/** Waits `ms`, or until the caller aborts (then the NETWORK error of an aborted call). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      reject(new PointsApiError("NETWORK", "the call was aborted", { details: { aborted: true, timedOut: false } }));
    if (signal?.aborted) return aborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      aborted();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new PointsApiError("INVALID_INPUT", `path parameter ${key} is missing`);
    return encodeURIComponent(String(value));
  });
}

type Envelope =
  | { success: true; data: unknown }
  | { success: false; error: { code: PointsApiError["code"]; message: string; details?: unknown } };

function parseEnvelope(text: string): Envelope | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const e = v as Record<string, any>;
  if (e.success === true && "data" in e) return e as Envelope;
  if (e.success === false && typeof e.error?.code === "string" && typeof e.error?.message === "string") {
    return e as Envelope;
  }
  return undefined;
}

async function prerequisiteOf(details: unknown, wrap: Parameters<typeof fetchRoute>[4] & {}) {
  const p = (details as { prerequisite?: UnsignedTx } | undefined)?.prerequisite;
  return p && typeof p.tx === "string" && typeof p.from === "string" ? wrap(p) : undefined;
}
