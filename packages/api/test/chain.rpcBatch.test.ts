import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonRpcPayload } from "ethers";
import { rpcProvider } from "../src/core/chain/rpc.js";
import type { ChainConfig } from "../src/core/config/chains.js";

// The API's provider forms its own JSON-RPC batches (src/core/chain/rpc.ts): cut at the batch
// count, each answer matched by id whatever the node's order, the node's errors and a missing
// answer given to their own call only, and calls still queued refused once it is destroyed.
describe("chain: the provider's JSON-RPC batches", () => {
  let server: Server;
  let url: string;
  /** The size of each request the node received (1: a single call, not an array). */
  const sizes: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const parsed = JSON.parse(body) as JsonRpcPayload | JsonRpcPayload[];
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        // The pool's own chain id check (src/core/chain/rpcPool.ts) is not counted.
        if (calls.some((c) => c.method !== "eth_chainId")) sizes.push(Array.isArray(parsed) ? calls.length : 1);
        // Answers in reverse order; `eth_fails` is an error, `eth_lost` gets no answer.
        const answers = calls
          .filter((c) => c.method !== "eth_lost")
          .map((c) =>
            c.method === "eth_chainId"
              ? { jsonrpc: "2.0", id: c.id, result: "0x7a69" }
              : c.method === "eth_fails"
                ? { jsonrpc: "2.0", id: c.id, error: { code: -32000, message: "nope" } }
                : { jsonrpc: "2.0", id: c.id, result: `0x${(c.params as string[])[0] ?? "0"}` },
          )
          .reverse();
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const provider = (batchMaxCount: number) =>
    rpcProvider({ chainId: 31337, name: "Local", rpcUrl: url, testnet: true } as ChainConfig, 5000, {
      batchMaxCount,
      batchStallTime: 5,
    });

  it("concurrentCalls_areCutIntoBatchesOfTheMaxCount_andEachGetsItsOwnAnswer", async () => {
    const p = provider(4);
    sizes.length = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => p.send("eth_echo", [i.toString(16)])));
    assert.deepEqual(
      answers,
      Array.from({ length: 10 }, (_, i) => `0x${i.toString(16)}`),
    );
    assert.deepEqual(sizes, [4, 4, 2]);
    p.destroy();
  });

  it("anErrorOrAMissingAnswer_failsOnlyItsOwnCall", async () => {
    const p = provider(10);
    const [ok, failed, lost] = await Promise.allSettled([
      p.send("eth_echo", ["a"]),
      p.send("eth_fails", []),
      p.send("eth_lost", []),
    ]);
    assert.deepEqual(ok, { status: "fulfilled", value: "0xa" });
    assert.equal(failed.status, "rejected");
    assert.match(String((failed as PromiseRejectedResult).reason), /nope/);
    assert.equal(lost.status, "rejected");
    assert.equal((lost as PromiseRejectedResult).reason.code, "BAD_DATA");
    assert.match(String((lost as PromiseRejectedResult).reason), /missing response for request/);
    p.destroy();
  });

  it("aSingleCall_isSentAlone_notAsAnArray", async () => {
    const p = provider(100);
    sizes.length = 0;
    assert.equal(await p.send("eth_echo", ["7"]), "0x7");
    assert.deepEqual(sizes, [1]);
    p.destroy();
  });

  it("destroy_refusesTheCallsStillQueued_andLaterCalls", async () => {
    const p = provider(100);
    sizes.length = 0;
    const queued = p.send("eth_echo", ["1"]);
    await new Promise((r) => setImmediate(r));
    p.destroy();
    await assert.rejects(queued, (e: { code?: string; message: string }) => {
      assert.equal(e.code, "UNSUPPORTED_OPERATION");
      assert.match(e.message, /provider destroyed; cancelled request/);
      return true;
    });
    await assert.rejects(p.send("eth_echo", ["2"]), /provider destroyed/);
    assert.deepEqual(sizes, []);
  });
});
