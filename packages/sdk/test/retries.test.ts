import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createClient, PointsApiError } from "../src/index.js";
import { startLive, type Live } from "./helpers/live.js";

/**
 * A proxy in front of the live API: answers the next `refusals` requests itself (status,
 * Retry-After, the API's error envelope), forwards the rest, and records every request's time.
 */
async function refusingProxy(target: string) {
  const seen: { method: string; path: string; at: number; idempotencyKey?: string }[] = [];
  let refusals: { status: number; retryAfter?: string }[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const key = req.headers["idempotency-key"];
    seen.push({ method: req.method!, path: req.url!, at: Date.now(), idempotencyKey: key as string | undefined });
    const refusal = refusals.shift();
    if (refusal) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (refusal.retryAfter !== undefined) headers["retry-after"] = refusal.retryAfter;
      res.writeHead(refusal.status, headers);
      const code = refusal.status === 429 ? "RATE_LIMITED" : "CHAIN_UNAVAILABLE";
      res.end(JSON.stringify({ success: false, error: { code, message: "refused by the test proxy" } }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && !["host", "connection"].includes(k)),
    ) as Record<string, string>;
    const answer = await fetch(target + req.url, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    refuse: (next: { status: number; retryAfter?: string }[]) => (refusals = next),
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("retries: idempotent calls survive 429 and 502/503/504 (live API behind a refusing proxy)", () => {
  let live: Live;
  let proxy: Awaited<ReturnType<typeof refusingProxy>>;
  before(async () => {
    live = await startLive();
    proxy = await refusingProxy(live.api.url);
  });
  after(async () => {
    await proxy?.close();
    await live?.stop();
  });

  it("aRead_429WithRetryAfter1_isRetriedAfterThatDelay_andAnswersTheApisData", async () => {
    const client = createClient({ baseUrl: proxy.url, apiKey: live.apiKey });
    proxy.seen.length = 0;
    proxy.refuse([{ status: 429, retryAfter: "1" }]);
    const state = await client.read.factoryState();
    assert.equal(state.factory, live.program.factory);
    assert.equal(proxy.seen.length, 2);
    const waited = proxy.seen[1]!.at - proxy.seen[0]!.at;
    assert.ok(waited >= 1000, `retried after ${waited} ms, before the Retry-After of 1 s`);
  });

  it("retriesRunOut_isTheApisError_withRetryAfterMs_andMaxRetries0_sendsOnce", async () => {
    const client = createClient({ baseUrl: proxy.url, apiKey: live.apiKey, maxRetries: 0 });
    proxy.seen.length = 0;
    proxy.refuse([{ status: 429, retryAfter: "2" }]);
    await assert.rejects(client.read.factoryState(), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.deepEqual([e.code, e.status, e.retryAfterMs], ["RATE_LIMITED", 429, 2000]);
      return true;
    });
    assert.equal(proxy.seen.length, 1);
  });

  it("aBuild_carriesAnIdempotencyKeyByDefault_andA503IsRetriedUnderTheSameKey_toTheSameTransaction", async () => {
    const client = createClient({ baseUrl: proxy.url, apiKey: live.apiKey });
    const { brand, alice } = live.actors;
    proxy.seen.length = 0;
    proxy.refuse([{ status: 503 }, { status: 502 }]);
    const built = await client.factory.addToMintWhitelist(alice.address, { from: brand.address });
    assert.equal(built.from, brand.address);
    assert.equal(proxy.seen.length, 3);
    const keys = new Set(proxy.seen.map((s) => s.idempotencyKey));
    assert.equal(keys.size, 1);
    assert.match([...keys][0]!, /^[0-9a-f-]{36}$/);
  });

  it("aWriteWithoutAKey_(noApiKey)_isNotRetried", async () => {
    const client = createClient({ baseUrl: proxy.url });
    proxy.seen.length = 0;
    proxy.refuse([{ status: 503 }]);
    await assert.rejects(
      client.build.transfer({ to: live.actors.alice.address, amount: "1" }, { from: live.actors.brand.address }),
      (e: unknown) => e instanceof PointsApiError && e.code === "CHAIN_UNAVAILABLE" && e.status === 503,
    );
    assert.equal(proxy.seen.length, 1);
  });
});
