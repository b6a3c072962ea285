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
}

const DEFAULT_TIMEOUT_MS = 30_000;

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
  wrap: (tx: UnsignedTx) => PreparedTx | undefined = () => undefined,
): Promise<unknown> {
  const { params, query, body, headers: extra } = input ?? {};
  const url = new URL(opts.baseUrl.replace(/\/+$/, "") + fillPath(route.path, params));
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: route.file ? "text/csv, application/json" : "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  Object.assign(headers, extra);
  const doFetch = opts.fetch ?? globalThis.fetch;
  // One controller per call, aborted by the deadline or the caller's signal, timer cleared at
  // the end (AbortSignal.timeout/any made undici drop connections under load on Node 20).
  const ms = call.timeoutMs ?? opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError"));
  }, ms);
  const onAbort = () => controller.abort(call.signal?.reason);
  if (call.signal?.aborted) onAbort();
  else call.signal?.addEventListener("abort", onAbort, { once: true });

  let status: number;
  let text: string;
  try {
    const res = await doFetch(url, {
      method: route.method.toUpperCase(),
      headers,
      body: body === undefined ? undefined : JSON.stringify(body, (_, v) => (typeof v === "bigint" ? v.toString() : v)),
      signal: controller.signal,
    });
    status = res.status;
    text = await res.text();
  } catch (e) {
    const aborted = controller.signal.aborted;
    const why = aborted ? (timedOut ? `no answer within ${ms} ms` : `the call was aborted`) : (e as Error).message;
    throw new PointsApiError("NETWORK", `could not reach the API at ${url.origin}: ${why}`, {
      cause: e,
      details: { aborted, timedOut },
    });
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener("abort", onAbort);
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
  throw new PointsApiError(code, message, { status, details, prerequisite: prerequisiteOf(details, wrap) });
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

function prerequisiteOf(details: unknown, wrap: (tx: UnsignedTx) => PreparedTx | undefined) {
  const p = (details as { prerequisite?: UnsignedTx } | undefined)?.prerequisite;
  return p && typeof p.tx === "string" && typeof p.from === "string" ? wrap(p) : undefined;
}
