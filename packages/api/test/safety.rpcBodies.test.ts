import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Service } from "../src/index.js";
import { send } from "./helpers/http.js";
import { startLoggedApi } from "./helpers/logs.js";
import { placeholderProgram } from "./helpers/records.js";

// A failing RPC's response body was logged word for word, and a provider that
// echoes its URL or key put the credential in the logs. Bodies are redacted as URLs are.
const KEY = "k3yOfTheProvider0123456789";
const PASSWORD = "pa55word-of-the-provider";
const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** A provider that refuses every call, echoing the URL it was called on and its key. */
function echoingProvider(status: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const echo = `key ${KEY} (password ${PASSWORD}) is not allowed on ${req.url}; see http://u:${PASSWORD}@x${req.url}`;
      const body =
        status === 200
          ? JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: echo } })
          : JSON.stringify({ error: echo });
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    });
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r(server)));
}

for (const status of [401, 500, 200]) {
  describe(`safety: a provider answering ${status} with its key in the body never puts it in logs or answers`, () => {
    let provider: Server;
    let service: Service;
    let lines: string[];
    let url: string;
    before(async () => {
      provider = await echoingProvider(status);
      const port = (provider.address() as AddressInfo).port;
      const rpcUrl = `http://user:${PASSWORD}@127.0.0.1:${port}/v3/${KEY}?apikey=${KEY}`;
      ({ service, url, lines } = await startLoggedApi({
        LOG_LEVEL: "debug",
        RPC_TIMEOUT_MS: "2000",
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl }]),
      }));
      await service.ctx.programs.insert(placeholderProgram());
    });
    after(async () => {
      await service?.close();
      provider?.close();
    });

    it("aChainRead_fails502_andNeitherTheAnswerNorAnyLogLineHoldsTheKeyOrPassword", async () => {
      const res = await send(url, "GET", `/api/v1/evm/balance/${A}`, { headers: { "x-request-id": `rpc-${status}` } });
      assert.equal(res.status, 502);
      assert.equal(res.body.error.code, "CHAIN_UNAVAILABLE");
      // Wait for the request's own error line (state, not a clock).
      for (let i = 0; i < 200 && !lines.some((l) => l.includes(`rpc-${status}`) && l.includes('"code"')); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const all = lines.join("\n");
      assert.ok(all.includes(`rpc-${status}`), "the request was logged");
      assert.ok(all.includes("[redacted]") || status === 500, "the body reached the log, redacted");
      for (const secret of [KEY, PASSWORD]) {
        assert.ok(!all.includes(secret), `a log line holds ${secret}`);
        assert.ok(!res.text.includes(secret), `the answer holds ${secret}`);
      }
    });
  });
}
