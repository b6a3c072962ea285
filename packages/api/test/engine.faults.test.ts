import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { engineSuite, sendTransfers, testEngine, until } from "./helpers/engine.js";

const SINK = "0x000000000000000000000000000000000000dEaD";

/**
 * The transaction engine against the faults of real networks, on a real Hardhat node with
 * automine off (blocks are mined by the test): each transaction lands exactly once and the
 * account's nonce count is what a clean run uses.
 */
describe("engine: faults (Hardhat, automine off)", () => {
  const t = engineSuite();

  it("manyInFlight_fromOneKey_shareBlocks_noNonceReusedOrSkipped", async () => {
    const { engine, wallet, finals } = testEngine(t.node.url, t.key);
    const before = await t.nonceOf(wallet.address);
    const { nonces } = await sendTransfers(engine, SINK, 40);
    assert.deepEqual(
      [...nonces].sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => before + i),
    );
    await t.mine();
    const receipts = await Promise.all(nonces.map((n) => engine.wait(n, "transfer")));
    assert.equal(new Set(receipts.map((r) => r.blockNumber)).size, 1, "all 40 in one block");
    assert.equal(await t.nonceOf(wallet.address), before + 40);
    assert.ok(finals.every((f) => f.versions === 1));
    engine.stop();
  });

  it("droppedSends_areReSent_andEachLandsOnce", async () => {
    const { engine, wallet } = testEngine(t.proxy.url, t.key);
    const before = await t.nonceOf(wallet.address);
    t.proxy.faults.dropSends = 2;
    const { nonces } = await sendTransfers(engine, SINK, 5);
    assert.equal(t.proxy.dropped.length >= 2, true);
    // The engine sees the node's pending nonce below its own and sends the missing ones again.
    await until(
      async () => (await t.node.provider.getTransactionCount(wallet.address, "pending")) === before + 5,
      10_000,
      "re-sends",
    );
    await t.mine();
    await Promise.all(nonces.map((n) => engine.wait(n, "transfer")));
    assert.equal(await t.nonceOf(wallet.address), before + 5);
    engine.stop();
  });

  it("hardhatDropTransaction_theDroppedOneIsReSent_withTheSameHash", async () => {
    const { engine, wallet } = testEngine(t.node.url, t.key);
    const before = await t.nonceOf(wallet.address);
    const { nonces, hashes } = await sendTransfers(engine, SINK, 3);
    const victim = hashes.get(before + 1)![0];
    assert.equal(await t.node.dropTransaction(victim), true);
    await until(async () => (await t.node.provider.getTransaction(victim)) !== null, 10_000, "re-send");
    await t.mine();
    const receipts = await Promise.all(nonces.map((n) => engine.wait(n, "transfer")));
    assert.equal(receipts.find((r) => r.hash === victim)?.status, 1);
    assert.equal(await t.nonceOf(wallet.address), before + 3);
    engine.stop();
  });

  it("feeSpike_stuckTransaction_isReplacedWithBumpedFees_sameNonce_everyHashKept", async () => {
    const { engine, wallet, replaced } = testEngine(t.node.url, t.key, { replaceAfterBlocks: 2 });
    const before = await t.nonceOf(wallet.address);
    const base = BigInt((await t.node.provider.send("eth_getBlockByNumber", ["latest", false])).baseFeePerGas);
    const { nonces, hashes } = await sendTransfers(engine, SINK, 1);
    // The next blocks cost 50 times more than the transaction offers: it cannot be mined.
    await t.node.setNextBaseFee(base * 50n);
    await t.mine();
    const sentAt = await t.node.provider.getBlockNumber();
    await t.mine(2);
    await until(() => replaced.length > 0, 10_000, "a replacement");
    await t.mine();
    const receipt = await engine.wait(nonces[0], "transfer");
    const tried = hashes.get(nonces[0])!;
    assert.ok(tried.length >= 2, "the task record holds the first hash and the replacement's");
    assert.equal(receipt.hash, tried.at(-1));
    assert.equal(await t.node.provider.getTransactionReceipt(tried[0]), null);
    const first = await t.node.provider.getTransaction(tried.at(-1)!);
    assert.equal(first?.nonce, nonces[0]);
    assert.ok(receipt.blockNumber - sentAt <= 2 + 3, "mined within 3 blocks of its deadline");
    assert.equal(await t.nonceOf(wallet.address), before + 1);
    engine.stop();
  });

  it("replacement_raisesBothFeesByAtLeastTenPercent", async () => {
    const { engine, replaced } = testEngine(t.node.url, t.key, { replaceAfterBlocks: 1 });
    const { nonces, hashes } = await sendTransfers(engine, SINK, 1);
    const firstTx = await t.node.provider.getTransaction(hashes.get(nonces[0])![0]);
    await t.node.dropTransaction(firstTx!.hash);
    await t.node.setNextBaseFee(10n ** 12n);
    await t.mine(1);
    await until(() => replaced.length > 0, 10_000, "a replacement");
    const r = replaced[0];
    assert.ok(r.fees.maxFeePerGas * 100n >= firstTx!.maxFeePerGas! * 110n);
    assert.ok(r.fees.maxPriorityFeePerGas * 100n >= firstTx!.maxPriorityFeePerGas! * 110n);
    await t.node.setNextBaseFee(1n);
    await t.mine();
    await engine.wait(nonces[0], "transfer");
    engine.stop();
  });

  it("replacedEvent_isEmittedOnlyOnceTheNodeWasOfferedTheReplacement", async () => {
    // Every request through the proxy takes 300 ms, so an event emitted before the send would
    // reach the test while the node still lacks the replacement.
    const { engine, replaced } = testEngine(t.proxy.url, t.key, { replaceAfterBlocks: 1 });
    const { nonces, hashes } = await sendTransfers(engine, SINK, 1);
    await t.node.dropTransaction(hashes.get(nonces[0])![0]);
    await t.node.setNextBaseFee(10n ** 12n);
    t.proxy.faults.delayMs = 300;
    await t.mine(1);
    await until(() => replaced.length > 0, 20_000, "a replacement");
    assert.notEqual(await t.node.provider.getTransaction(replaced[0].hash), null, "the node holds the replacement");
    t.proxy.faults.delayMs = 0;
    await t.node.setNextBaseFee(1n);
    await t.mine();
    await engine.wait(nonces[0], "transfer");
    engine.stop();
  });

  it("reorg_removesTheReceipt_theTransactionGoesBackAndLandsAgain_finalOnlyAtDepth", async () => {
    const { engine, wallet } = testEngine(t.node.url, t.key, { confirmations: 2 });
    const before = await t.nonceOf(wallet.address);
    const snap = await t.node.snapshot();
    const { nonces, hashes } = await sendTransfers(engine, SINK, 1);
    let final = false;
    const waiting = engine.wait(nonces[0], "transfer").then((r) => ((final = true), r));
    await t.mine();
    assert.ok(await t.node.provider.getTransactionReceipt(hashes.get(nonces[0])![0]));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(final, false, "one block deep is not final at depth 2");
    // The block with the receipt is reorganised away.
    await t.node.revert(snap);
    assert.equal(await t.node.provider.getTransactionReceipt(hashes.get(nonces[0])![0]), null);
    await until(
      async () => (await t.node.provider.getTransactionCount(wallet.address, "pending")) === before + 1,
      10_000,
      "re-send after the reorg",
    );
    await t.mine(2);
    const receipt = await waiting;
    const canonical = await t.node.provider.getBlock(receipt.blockNumber);
    assert.equal(receipt.blockHash, canonical!.hash);
    assert.equal(await t.nonceOf(wallet.address), before + 1);
    engine.stop();
  });

  it("crashRecovery_pendingNoncesFromBefore_areNeitherReusedNorSkipped", async () => {
    const a = testEngine(t.node.url, t.key);
    const start = await t.nonceOf(a.wallet.address);
    await sendTransfers(a.engine, SINK, 3);
    a.engine.stop(); // the process dies with three transactions pending
    const b = testEngine(t.node.url, t.key);
    const { nonces } = await sendTransfers(b.engine, SINK, 2);
    assert.deepEqual(nonces, [start + 3, start + 4]);
    await t.mine();
    await Promise.all(nonces.map((n) => b.engine.wait(n, "transfer")));
    assert.equal(await t.nonceOf(b.wallet.address), start + 5);
    b.engine.stop();
  });

  it("crashRecovery_aPendingTransactionDroppedMeanwhile_itsNonceIsTakenByTheNextSend", async () => {
    const a = testEngine(t.node.url, t.key);
    const start = await t.nonceOf(a.wallet.address);
    const { hashes } = await sendTransfers(a.engine, SINK, 2);
    a.engine.stop();
    await t.node.dropTransaction(hashes.get(start + 1)![0]);
    const b = testEngine(t.node.url, t.key);
    const { nonces } = await sendTransfers(b.engine, SINK, 1);
    assert.deepEqual(nonces, [start + 1]);
    await t.mine();
    await b.engine.wait(start + 1, "transfer");
    assert.equal(await t.nonceOf(b.wallet.address), start + 2);
    b.engine.stop();
  });

  it("nodeRefusal_givesTheNonceBack_andFailsWithTxRejected", async () => {
    const { engine, wallet } = testEngine(t.node.url, t.key);
    const before = await t.nonceOf(wallet.address);
    await assert.rejects(
      engine.sendBatch(
        1,
        async () => [{ to: SINK, value: 1n, gasLimit: 20_000n }],
        () => {},
      ),
      (e: { code?: string }) => e.code === "TX_REJECTED",
    );
    const { nonces } = await sendTransfers(engine, SINK, 1);
    assert.deepEqual(nonces, [before]);
    await t.mine();
    await engine.wait(before, "transfer");
    engine.stop();
  });

  it("anOnSignedThatThrows_sendsNothing_andSkipsNoNonce", async () => {
    const { engine, wallet } = testEngine(t.node.url, t.key);
    const before = await t.nonceOf(wallet.address);
    await assert.rejects(
      engine.sendBatch(
        1,
        async () => [{ to: SINK, value: 1n, gasLimit: 21_000n }],
        () => {
          throw new Error("store down");
        },
      ),
      /store down/,
    );
    assert.equal(await t.node.provider.getTransactionCount(wallet.address, "pending"), before);
    const { nonces } = await sendTransfers(engine, SINK, 1);
    assert.deepEqual(nonces, [before]);
    await t.mine();
    await engine.wait(before, "transfer");
    engine.stop();
  });
});
