import type { z } from "zod";
import type {
  LedgerEventName,
  WebhookEventData as WebhookEventDataSchema,
  WebhookRemovedData as WebhookRemovedDataSchema,
} from "@points/schema";
import { PointsApiError } from "./errors.js";
import type { Addressed } from "./types.js";

/**
 * `data` of a `ledger.event` delivery: the event as the ledger routes answer it (block time as
 * ISO text, integers as decimal strings, addresses checksummed), with its program and chain. A
 * union over every event the ledger contracts declare: checking `event` types `args`, e.g.
 * `if (e.data.event === "PSPMinted") e.data.args.amount`. `event` is null for a log its
 * contract's ABI does not declare (`args` then holds its raw `topics` and `data`).
 */
export type WebhookEventData = Addressed<z.output<typeof WebhookEventDataSchema>>;

/** `data` of a `ledger.event.removed` delivery: the event, and the `webhook-id` that announced it. */
export type WebhookRemovedData = Addressed<z.output<typeof WebhookRemovedDataSchema>>;

/** The name of every event the ledger keeps (and a subscription's `eventTypes` may list). */
export type { LedgerEventName };

/** The `data` of one event kind: `LedgerEventOf<"PSPMinted">["args"]` is a mint's arguments. */
export type LedgerEventOf<N extends LedgerEventName> = Extract<WebhookEventData, { event: N }>;

/**
 * A verified delivery: `ledger.event` for an event of a block, `ledger.event.removed` when a
 * reorg took that block away (undo what the event did). `id` is the `webhook-id` header: the
 * same on every attempt and redelivery, so keep it to process each delivery once.
 */
export type WebhookEvent = { id: string; timestamp: string } & (
  { type: "ledger.event"; data: WebhookEventData } | { type: "ledger.event.removed"; data: WebhookRemovedData }
);

/** How far a delivery's `webhook-timestamp` may be from now (Standard Webhooks' 5 minutes). */
const TOLERANCE_S = 5 * 60;

/**
 * Verifies a delivery (Standard Webhooks: HMAC-SHA256 over `id.timestamp.body` with the
 * subscription's `whsec_` secret, a timestamp within 5 minutes) and returns its typed event.
 * `rawBody` must be the bytes as received (not re-serialized JSON). Any failure is a
 * PointsApiError UNAUTHORIZED (bad or missing signature, stale timestamp) or INVALID_INPUT (not
 * a delivery's JSON): answer the sender 400 and do nothing.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
  now: Date = new Date(),
): Promise<WebhookEvent> {
  const header = (name: string) => {
    const v = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
    return Array.isArray(v) ? v[0] : (v ?? undefined);
  };
  const id = header("webhook-id");
  const timestamp = header("webhook-timestamp");
  const signatures = header("webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw refused("missing webhook-id, webhook-timestamp or webhook-signature header");
  }
  const ts = Number(timestamp);
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - ts) > TOLERANCE_S) {
    throw refused("webhook-timestamp is not within 5 minutes of now");
  }
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const expected = await hmac(secret, `${id}.${timestamp}.${body}`);
  const given = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => s.slice(3));
  if (!given.some((g) => equal(g, expected))) throw refused("no valid v1 signature with this secret");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw new PointsApiError("INVALID_INPUT", "the delivery's body is not JSON", { cause: e });
  }
  const p = parsed as { type?: unknown; timestamp?: unknown; data?: { event?: unknown; args?: unknown } } | null;
  if (
    !p ||
    (p.type !== "ledger.event" && p.type !== "ledger.event.removed") ||
    typeof p.timestamp !== "string" ||
    typeof p.data !== "object" ||
    p.data === null ||
    (typeof p.data.event !== "string" && p.data.event !== null) ||
    typeof p.data.args !== "object" ||
    p.data.args === null
  ) {
    throw new PointsApiError("INVALID_INPUT", "the delivery's body is not a ledger event");
  }
  // Signed by the API: its data is the schema's (the event's fields typed by its name).
  return { id, type: p.type, timestamp: p.timestamp, data: p.data } as WebhookEvent;
}

const refused = (why: string) => new PointsApiError("UNAUTHORIZED", `webhook refused: ${why}`);

async function hmac(secret: string, text: string): Promise<string> {
  const raw = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  let keyBytes: Uint8Array;
  try {
    keyBytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
  } catch (e) {
    throw new PointsApiError("INVALID_INPUT", "the secret is not a whsec_ base64 secret", { cause: e });
  }
  const key = await globalThis.crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const sig = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...sig));
}

/** Compares in time independent of where the strings differ. */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
