import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { DEV_CHAIN, DevNodeError, NODE_KINDS, startNode, testNodeKind } from "../dist/index.js";

describe("testNodeKind", () => {
  it("isHardhatWhenUnset_andRefusesAnUnknownNode", () => {
    assert.equal(testNodeKind({}), "hardhat");
    assert.equal(testNodeKind({ TEST_NODE: "anvil" }), "anvil");
    assert.throws(() => testNodeKind({ TEST_NODE: "geth" }), DevNodeError);
  });
});

// The controls mean the same on both nodes, whatever their own methods and units.
for (const kind of NODE_KINDS) {
  describe(`node controls on ${kind}`, () => {
    let node;
    before(async () => {
      node = await startNode({ kind });
    });
    after(() => node?.stop());

    it("servesTheDevChain_withTheSameAccountsAndBlockGasLimit", async () => {
      assert.equal(node.kind, kind);
      assert.equal((await node.provider.getNetwork()).chainId, BigInt(DEV_CHAIN.chainId));
      assert.equal((await node.provider.getBlock("latest")).gasLimit, BigInt(DEV_CHAIN.blockGasLimit));
      assert.equal(await node.provider.getBalance(node.wallets[0].address), 10n ** 22n);
    });

    it("withoutAutomine_aTransactionWaits_untilMined_andADropRemovesIt", async () => {
      await node.setAutomine(false);
      try {
        const [a, b] = node.wallets;
        const kept = await a.sendTransaction({ to: b.address, value: 1n });
        const dropped = await b.sendTransaction({ to: a.address, value: 1n });
        assert.equal(await node.dropTransaction(dropped.hash), true);
        assert.equal(await node.dropTransaction(dropped.hash), false);
        const head = await node.provider.getBlockNumber();
        await node.mine();
        assert.equal((await node.provider.getTransactionReceipt(kept.hash)).blockNumber, head + 1);
        assert.equal(await node.provider.getTransactionReceipt(dropped.hash), null);
      } finally {
        await node.setAutomine(true);
      }
    });

    it("setNextBaseFee_isTheNextBlocksBaseFee_andMineAt_setsItsTimestamp", async () => {
      await node.setNextBaseFee(7n * 10n ** 9n);
      await node.mine();
      assert.equal((await node.provider.getBlock("latest")).baseFeePerGas, 7n * 10n ** 9n);
      const t = (await node.provider.getBlock("latest")).timestamp + 1000;
      await node.mineAt(t);
      assert.equal((await node.provider.getBlock("latest")).timestamp, t);
    });

    it("revert_restoresTheNextBlocksBaseFee_soARerunMinesTheSameBlocks", async () => {
      const nextBaseFee = async () =>
        BigInt((await node.provider.send("eth_feeHistory", ["0x1", "latest", []])).baseFeePerGas.at(-1));
      const snap = await node.snapshot();
      const before = await nextBaseFee();
      // Empty blocks lower the base fee by an eighth each.
      await node.mine(8);
      assert.ok((await nextBaseFee()) < before);
      await node.revert(snap);
      assert.equal(await nextBaseFee(), before);
    });

    it("reorg_replacesTheBlocksAfterThePoint_andTheirTransactionsAreGone", async () => {
      const point = await node.reorgPoint();
      const [a, b] = node.wallets;
      const tx = await a.sendTransaction({ to: b.address, value: 1n });
      await node.mine(2);
      const old = await node.provider.getBlock(point.block + 1);
      await node.reorg(point, { extra: 1 });
      assert.equal(await node.provider.getBlockNumber(), point.block + 4);
      assert.notEqual((await node.provider.getBlock(point.block + 1)).hash, old.hash);
      assert.equal(await node.provider.getTransactionReceipt(tx.hash), null);
    });

    it("intervalMining_minesWithoutTransactions", { timeout: 60_000 }, async () => {
      const head = await node.provider.getBlockNumber();
      await node.setIntervalMining(100);
      try {
        while ((await node.provider.getBlockNumber()) < head + 2) await new Promise((r) => setTimeout(r, 50));
      } finally {
        await node.setIntervalMining(0);
        await node.setAutomine(true);
      }
    });
  });
}
