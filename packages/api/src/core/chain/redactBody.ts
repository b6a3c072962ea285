import type { FetchGetUrlFunc } from "ethers";
import type { ChainConfig } from "../config/env.js";

const REDACTED = "[redacted]";
/** Path segments and query values shorter than this are words ("v3", "rpc"), not keys. */
const SECRET_MIN = 6;

/**
 * The parts of a chain's RPC URLs that may be credentials: each whole URL, user and password,
 * path segments and query values of SECRET_MIN characters or more; longest first so a URL is
 * redacted whole before its pieces.
 */
export function urlSecrets(chain: ChainConfig): string[] {
  const found = new Set<string>();
  for (const raw of [chain.rpcUrl, ...(chain.rpcUrls ?? [])]) {
    found.add(raw);
    const url = new URL(raw);
    const parts = [
      url.username,
      url.password,
      ...url.pathname.split("/"),
      ...[...url.searchParams.values()],
      url.hash.slice(1),
    ];
    for (const p of parts) {
      if (p.length < SECRET_MIN) continue;
      found.add(p);
      try {
        found.add(decodeURIComponent(p));
      } catch {
        // Not percent-encoding: the raw form is enough.
      }
    }
  }
  return [...found].filter((s) => s.length >= SECRET_MIN).sort((a, b) => b.length - a.length);
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();
const ERROR = Buffer.from('"error"');

/**
 * A transport whose failed answers (HTTP status outside 2xx, or a JSON-RPC error) have every
 * credential of the chain's RPC URLs replaced: ethers copies a failed response's body into its
 * error message, which reaches logs and task records, and a provider may echo its URL or key.
 */
export function redactingBodies(chain: ChainConfig, transport: FetchGetUrlFunc): FetchGetUrlFunc {
  const secrets = urlSecrets(chain);
  return async (req, signal) => {
    const res = await transport(req, signal);
    const body = res.body;
    if (!body || body.length === 0) return res;
    const failed = res.statusCode < 200 || res.statusCode >= 300;
    if (!failed && Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf(ERROR) < 0) return res;
    const text = utf8.decode(body);
    let clean = text;
    for (const s of secrets) clean = clean.split(s).join(REDACTED);
    if (clean === text) return res;
    return { ...res, body: encoder.encode(clean) };
  };
}
