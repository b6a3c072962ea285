import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Agent, get } from "node:http";
import { startApi, type TestApi } from "./helpers/service.js";

const CLOSED_PORT = "http://127.0.0.1:9";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET `url` through `agent`; answers the status and the local port of the socket it went over. */
function getVia(agent: Agent, url: string): Promise<{ status: number; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, localPort: req.socket!.localPort! }));
    });
    req.on("error", reject);
  });
}

// packages/api/README.md#running-in-production: idle keep-alive connections outlive the clients' own idle timeouts,
// so a client reusing one never meets a socket the server closed a moment before (a reset, a 502 at a balancer).
describe("http: keep-alive connections stay open longer than a client keeps them idle", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi(CLOSED_PORT, { WORKER: "off" });
  });
  after(async () => {
    await api?.close();
  });

  it("aConnectionIdleForSixSeconds_pastNodesDefaultFive_isReusedByTheNextRequest", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getVia(agent, `${api.url}/health`);
      assert.equal(first.status, 200);
      await sleep(6_000);
      const second = await getVia(agent, `${api.url}/health`);
      assert.equal(second.status, 200);
      assert.equal(second.localPort, first.localPort, "the second request went over the same connection");
    } finally {
      agent.destroy();
    }
  });
});
