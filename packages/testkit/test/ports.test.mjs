import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { DevNodeError, freePort, isPortFree, startNode } from "../dist/index.js";

// Ports for servers that start later (src/ports.ts): never one that listen(0) can hand out, and a
// node is ready only when its own server answers.
describe("testkit: ports and the local node", () => {
  it("freePort_isBelowTheEphemeralRange_andFree", async () => {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      assert.ok(port >= 20_000 && port < first, `port ${port} outside [20000, ${first})`);
      assert.equal(await isPortFree(port), true);
    }
  });

  it("startNode_withoutAPort_usesThePortItsNodeAnnounced", async () => {
    const node = await startNode();
    try {
      assert.equal(node.url, `http://127.0.0.1:${node.port}`);
      assert.equal((await node.provider.getNetwork()).chainId, 31337n);
      assert.equal(await isPortFree(node.port), false);
    } finally {
      await node.stop();
    }
  });

  it("startNode_onAPortAnotherServerHolds_failsClearly_evenWhenThatServerSpeaksJsonRpc", async () => {
    // Another process's chain on the port would otherwise pass for this node.
    const impostor = createServer((_, res) => res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x7a69" })));
    const port = await freePort();
    await new Promise((r) => impostor.listen(port, "127.0.0.1", r));
    try {
      await assert.rejects(startNode({ port }), (e) => e instanceof DevNodeError && /already in use/.test(e.message));
    } finally {
      await new Promise((r) => impostor.close(r));
    }
  });
});
