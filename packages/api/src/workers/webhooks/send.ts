import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { guardedLookup } from "../../core/webhooks/target.js";

/** What one attempt got: a status (any), or an error before a status (refused, timeout, DNS). */
export type Attempt = { status: number } | { error: string };

/**
 * POSTs one signed message (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature over `id.timestamp.body`). No redirects are followed; the socket only
 * connects to public addresses unless `allowPrivate`; the whole exchange has `timeoutMs`.
 */
export function sendSigned(
  url: string,
  secret: string,
  id: string,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<Attempt> {
  const now = new Date();
  const signature = new Webhook(secret).sign(id, now, body);
  const target = new URL(url);
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      target,
      {
        method: "POST",
        lookup: guardedLookup(opts.allowPrivate),
        timeout: opts.timeoutMs,
        headers: {
          "content-type": "application/json",
          "user-agent": "points-ledger-webhooks/1",
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": signature,
        },
      },
      (res) => {
        // Only the status matters; the body is drained, not read.
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ? `${e.code}: ${e.message}` : e.message }));
    req.end(body);
  });
}
