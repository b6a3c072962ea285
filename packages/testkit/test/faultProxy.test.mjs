import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { startFaultProxy } from "../dist/index.js";

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

const call = (url) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });

// A test's node can stop while a client's request is still in the proxy (a loop that outlives its
// service's close): the proxy answers like a gateway, and its test process lives on.
describe("testkit: the fault proxy when its node goes away", () => {
  it("aNodeThatClosesTheConnection_isAnswered502_withAJsonRpcError", async () => {
    const node = await listen((req) => req.socket.destroy());
    const proxy = await startFaultProxy(node.url);
    try {
      const r = await call(proxy.url);
      assert.equal(r.status, 502);
      const body = await r.json();
      assert.equal(body.error.code, -32603);
      assert.match(body.error.message, /^fault proxy: the node did not answer/);
    } finally {
      await proxy.close();
      node.server.close();
    }
  });

  it("aNodeThatAnswersNotJson_isAnswered502", async () => {
    const node = await listen((_req, res) => res.writeHead(200).end("<html>gateway</html>"));
    const proxy = await startFaultProxy(node.url);
    try {
      assert.equal((await call(proxy.url)).status, 502);
    } finally {
      await proxy.close();
      node.server.close();
    }
  });

  it("aNodeStoppedWhileARequestWaits_leavesNoUnhandledRejection", async () => {
    let release;
    const held = new Promise((r) => (release = r));
    const node = await listen(async (req) => {
      await held;
      req.socket.destroy();
    });
    const proxy = await startFaultProxy(node.url);
    const rejections = [];
    const onRejection = (e) => rejections.push(e);
    process.on("unhandledRejection", onRejection);
    try {
      const pending = call(proxy.url).catch((e) => e);
      await new Promise((r) => setTimeout(r, 50));
      // The client gives up first (as a closing service does), then the node goes away.
      await proxy.close();
      release();
      await pending;
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(rejections, []);
    } finally {
      process.off("unhandledRejection", onRejection);
      node.server.close();
    }
  });
});
