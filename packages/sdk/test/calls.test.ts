import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, isPointsError } from "../src/index.js";

// A stand-in server: /hang never answers; anything else echoes the request as a build answer.
describe("every call has a deadline and an AbortSignal; amounts may be bigint", () => {
  let server: Server;
  let baseUrl: string;
  const bodies: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        if (req.url?.includes("0x0000000000000000000000000000000000000001")) return; // never answers
        bodies.push(body);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ success: true, data: { address: "0x", balance: "0" } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const HANGS = "0x0000000000000000000000000000000000000001";

  it("aCallPastItsDeadline_isNetworkWithTimedOut", async () => {
    const client = createClient({ baseUrl, timeoutMs: 5_000 });
    const started = Date.now();
    const e = await client.read.balance(HANGS, { timeoutMs: 200 }).catch((x: unknown) => x);
    assert.ok(isPointsError(e, "NETWORK"), String(e));
    assert.deepEqual(e.details, { aborted: true, timedOut: true });
    assert.equal(e.message, `could not reach the API at ${baseUrl}: no answer within 200 ms`);
    assert.ok(Date.now() - started < 2_000);
  });

  it("theClientsDeadline_appliesToCallsWithoutTheirOwn", async () => {
    const e = await createClient({ baseUrl, timeoutMs: 150 })
      .read.balance(HANGS)
      .catch((x: unknown) => x);
    assert.ok(isPointsError(e, "NETWORK"));
    assert.deepEqual(e.details, { aborted: true, timedOut: true });
  });

  it("anAbortedSignal_isNetworkAborted_notTimedOut", async () => {
    const ctl = new AbortController();
    const call = createClient({ baseUrl }).read.balance(HANGS, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    const e = await call.catch((x: unknown) => x);
    assert.ok(isPointsError(e, "NETWORK"));
    assert.deepEqual(e.details, { aborted: true, timedOut: false });
    assert.equal(e.message, `could not reach the API at ${baseUrl}: the call was aborted`);
  });

  it("aBigintAmount_travelsAsItsDecimalDigits", async () => {
    bodies.length = 0;
    const from = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    await createClient({ baseUrl }).vault.mint("summer", from, 12_345_678_901_234_567_890n, "", { from, nonce: 7 });
    assert.deepEqual(JSON.parse(bodies[0]), {
      campaignId: "summer",
      to: from,
      amount: "12345678901234567890",
      metadata: "",
      from,
      nonce: 7,
    });
  });
});
