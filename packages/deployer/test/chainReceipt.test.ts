import assert from "node:assert/strict";
import { JsonRpcProvider, Network, type Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { Chain, isDeployerError } from "../src/index.js";

/**
 * A provider whose first receipt read (no receipt yet) lets the block land right after it
 * answers: the order a loaded machine produces when a dev node mines a sent transaction a moment
 * after handing back its hash.
 */
class BlockLandsAfterTheFirstRead extends JsonRpcProvider {
  armed = true;
  override async getTransactionReceipt(hash: string) {
    const r = await super.getTransactionReceipt(hash);
    if (this.armed) {
      this.armed = false;
      await this.send("evm_mine", []);
    }
    return r;
  }
}

describe("Chain.receipt: a mined transaction is found whatever the order of reads", () => {
  let node: DevNode;
  let sender: Wallet;

  before(async () => {
    node = await startNode();
    sender = node.wallets[7]!;
  });
  after(async () => {
    await node?.stop();
  });

  it("receipt_returns_whenTheBlockLandsJustAfterAReadFoundNothing", async () => {
    await node.setAutomine(false);
    try {
      const tx = await sender.sendTransaction({ to: sender.address, value: 1n });
      const provider = new BlockLandsAfterTheFirstRead(node.url, Network.from(31337n), {
        staticNetwork: true,
        cacheTimeout: -1,
        pollingInterval: 50,
      });
      const chain = new Chain(provider, { receiptTimeoutMs: 5_000, pollMs: 50 });
      // Nothing else mines: a wait that needs a next block never ends.
      const receipt = await chain.receipt(tx.hash, "self transfer");
      assert.equal(receipt.hash, tx.hash);
      assert.equal(receipt.status, 1);
      provider.destroy();
    } finally {
      await node.setAutomine(true);
    }
  });

  it("receipt_failsWith_TRANSACTION_FAILED_whenNothingIsMinedByTheDeadline", async () => {
    await node.setAutomine(false);
    try {
      const tx = await sender.sendTransaction({ to: sender.address, value: 2n });
      const chain = new Chain(node.provider, { receiptTimeoutMs: 300, pollMs: 50 });
      await assert.rejects(
        chain.receipt(tx.hash, "self transfer"),
        (e: unknown) => isDeployerError(e, "TRANSACTION_FAILED") && /was not mined within 300 ms/.test(e.message),
      );
      await node.mine();
    } finally {
      await node.setAutomine(true);
    }
  });
});
