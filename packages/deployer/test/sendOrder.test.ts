import assert from "node:assert/strict";
import { JsonRpcProvider, Network, Transaction, Wallet } from "ethers";
import { startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { ensureRelease, MemoryStore } from "../src/index.js";
import { CHAIN } from "./helpers/fixture.js";

/**
 * A batch of creations reaches the node one transaction at a time, in nonce order: anvil's
 * automine can leave a nonce that arrived before its predecessor in the pool for good, and a
 * hosted RPC may route two requests of one batch to different backends (docs/deployment.md#releases).
 */
describe("createAll: a batch's transactions reach the node in nonce order, one answered before the next", () => {
  let node: DevNode;
  let proxy: FaultProxy;

  before(async () => {
    node = await startNode();
    proxy = await startFaultProxy(node.url);
  });
  after(async () => {
    await proxy?.close();
    await node?.stop();
  });

  it("ensureRelease_sendsEachCreationAfterTheNodeAnsweredThePreviousOne_inNonceOrder", async () => {
    const requests: number[][] = [];
    let inFlight = 0;
    let overlapped = 0;
    proxy.faults.afterAnswer = async (calls) => {
      const sends = calls.filter((c) => c.method === "eth_sendRawTransaction");
      if (sends.length === 0) return;
      requests.push(sends.map((c) => Transaction.from(String(c.params?.[0])).nonce));
      // Held open a moment: a send that does not wait for this answer arrives meanwhile.
      if (++inFlight > 1) overlapped++;
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
    };
    const provider = new JsonRpcProvider(proxy.url, Network.from(31337n), { staticNetwork: true, cacheTimeout: -1 });
    try {
      const signer = new Wallet(node.wallets[0]!.privateKey, provider);
      const release = await ensureRelease(CHAIN, signer, new MemoryStore());
      assert.equal(Object.keys(release.contracts).length, 6);
      assert.deepEqual(requests, [[0], [1], [2], [3], [4], [5]]);
      assert.equal(overlapped, 0);
    } finally {
      provider.destroy();
    }
  });
});
