import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Transaction } from "ethers";
import { engineSuite, sendTransfers, testEngine, until } from "./helpers/engine.js";

const SINK = "0x000000000000000000000000000000000000dEaD";

/**
 * A transaction signed and recorded by a run that then died, resumed by a new engine: whether
 * the node never got it or gets it late, the new engine sends that very transaction, so its
 * purpose takes one nonce and one hash (docs/architecture.md#transaction-engine).
 */
describe("engine: resuming a transaction a crashed run signed (Hardhat, automine off)", () => {
  const t = engineSuite();
  const pendingOf = (a: string) => t.node.provider.getTransactionCount(a, "pending");

  /** A run that signs and records one transfer, which the node never gets, then dies. */
  async function crashedRun() {
    const a = testEngine(t.proxy.url, t.key);
    t.proxy.faults.dropSends = 1_000;
    const { nonces, hashes } = await sendTransfers(a.engine, SINK, 1);
    a.engine.stop();
    t.proxy.faults.dropSends = 0;
    const raw = t.proxy.dropped[0];
    assert.equal(Transaction.from(raw).hash, hashes.get(nonces[0])![0], "the proxy swallowed the signed transfer");
    return { nonce: nonces[0], raw, hash: hashes.get(nonces[0])![0], address: a.wallet.address };
  }

  it("settleNonce_ofASignedTransactionTheNodeNeverGot_sendsItAsItWasSigned", async () => {
    const crashed = await crashedRun();
    assert.equal(await pendingOf(crashed.address), crashed.nonce, "nothing reached the node");
    const b = testEngine(t.node.url, t.key);
    const signed: string[] = [];
    await b.engine.start();
    const settled = b.engine.settleNonce(crashed.nonce, { raw: crashed.raw, onSigned: (h) => void signed.push(h) });
    await until(async () => (await pendingOf(crashed.address)) === crashed.nonce + 1, 10_000, "the send");
    await t.mine();
    await settled;
    const tx = await t.node.provider.getTransaction(crashed.hash);
    assert.equal(tx?.nonce, crashed.nonce, "the recorded hash is the one mined");
    assert.equal(await t.nonceOf(crashed.address), crashed.nonce + 1);
    assert.deepEqual(signed, [], "no new version was signed");
    const { nonces } = await sendTransfers(b.engine, SINK, 1);
    assert.deepEqual(nonces, [crashed.nonce + 1], "the next send takes the next nonce");
    b.engine.stop();
  });

  it("settleNonce_ofASignedTransactionArrivingAfterTheRestart_takesNoSecondNonce", async () => {
    const crashed = await crashedRun();
    const b = testEngine(t.node.url, t.key);
    await b.engine.start();
    assert.equal(b.engine.status().nextNonce, crashed.nonce, "the engine started before the transaction arrived");
    // The dead run's transaction reaches the node late (a socket drained after the kill, another endpoint).
    await t.node.provider.send("eth_sendRawTransaction", [crashed.raw]);
    let settledYet = false;
    const settled = b.engine
      .settleNonce(crashed.nonce, { raw: crashed.raw, onSigned: () => {} })
      .then(() => void (settledYet = true));
    // Taken on as the engine's own: watched until mined, so the caller then finds what it did.
    await until(() => b.engine.status().inFlight === 1, 5_000, "the transaction taken on");
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(settledYet, false, "not settled before it is mined");
    const { nonces } = await sendTransfers(b.engine, SINK, 1);
    assert.deepEqual(nonces, [crashed.nonce + 1]);
    await t.mine();
    await settled;
    await b.engine.wait(nonces[0], "transfer");
    assert.equal((await t.node.provider.getTransaction(crashed.hash))?.nonce, crashed.nonce);
    assert.equal(await t.nonceOf(crashed.address), crashed.nonce + 2, "two purposes, two nonces");
    b.engine.stop();
  });

  it("settleNonce_ofATransactionPendingAtStart_thatTheNodeThenDrops_sendsItAgain_insteadOfFillingTheNonce", async () => {
    const a = testEngine(t.node.url, t.key);
    const signed: { hash: string; raw: string }[] = [];
    const [sent] = await a.engine.sendBatch(
      1,
      async () => [{ to: SINK, value: 1n, gasLimit: 21_000n }],
      (_, hash, __, raw) => void signed.push({ hash, raw }),
    );
    a.engine.stop(); // dies with the transfer in the node's pool
    const b = testEngine(t.node.url, t.key);
    await b.engine.start();
    assert.equal(b.engine.status().inFlight, 1, "found pending at start");
    const settled = b.engine.settleNonce(sent.nonce, { raw: signed[0].raw, onSigned: () => {} });
    await new Promise((r) => setTimeout(r, 50));
    await t.node.dropTransaction(sent.hash);
    await until(async () => (await pendingOf(a.wallet.address)) === sent.nonce + 1, 10_000, "the re-send");
    await t.mine();
    await settled;
    const mined = await t.node.provider.getTransaction(sent.hash);
    assert.equal(mined?.nonce, sent.nonce, "the transfer itself took its nonce, not an empty fill");
    assert.equal(await t.nonceOf(a.wallet.address), sent.nonce + 1);
    b.engine.stop();
  });

  it("settleNonce_ofAnotherKeysTransaction_sendsNothing_andLeavesTheNonceToTheCaller", async () => {
    const crashed = await crashedRun();
    t.key = (t.key + 1) % 10;
    const b = testEngine(t.node.url, t.key);
    const before = await t.nonceOf(b.wallet.address);
    await b.engine.settleNonce(before, { raw: crashed.raw, onSigned: () => {} });
    assert.equal(b.engine.status().nextNonce, before);
    assert.equal(await pendingOf(b.wallet.address), before);
    assert.equal(await pendingOf(crashed.address), crashed.nonce, "the other t.key's transaction was not sent");
    b.engine.stop();
  });

  it("settleNonce_aboveTheNextNonce_sendsNothing_theGapIsLeftToTheCaller", async () => {
    const a = testEngine(t.proxy.url, t.key);
    t.proxy.faults.dropSends = 2;
    const { nonces } = await sendTransfers(a.engine, SINK, 2);
    a.engine.stop();
    const [first, second] = [...nonces].sort((x, y) => x - y);
    const raw = t.proxy.dropped.find((r) => Transaction.from(r).nonce === second)!;
    const b = testEngine(t.node.url, t.key);
    // Nonce `first` was never sent: the transaction of `second` could never be mined alone.
    await b.engine.settleNonce(second, { raw, onSigned: () => {} });
    assert.equal(b.engine.status().nextNonce, first);
    assert.equal(await pendingOf(a.wallet.address), first);
    b.engine.stop();
  });

  it("settleNonce_ofATransactionTheNodeRefuses_givesTheNonceBack_forTheCallerToSendAnew", async () => {
    const a = testEngine(t.proxy.url, t.key);
    t.proxy.faults.dropSends = 1;
    // More than the account holds: the node refuses it once it finally gets it.
    const [sent] = await a.engine.sendBatch(
      1,
      async () => [{ to: SINK, value: 10n ** 30n, gasLimit: 21_000n }],
      () => {},
    );
    a.engine.stop();
    const b = testEngine(t.node.url, t.key);
    await b.engine.settleNonce(sent.nonce, { raw: t.proxy.dropped[0], onSigned: () => {} });
    assert.equal(b.engine.status().nextNonce, sent.nonce);
    assert.equal(b.engine.status().inFlight, 0);
    const { nonces } = await sendTransfers(b.engine, SINK, 1);
    assert.deepEqual(nonces, [sent.nonce], "the nonce went to the next send");
    await t.mine();
    await b.engine.wait(sent.nonce, "transfer");
    b.engine.stop();
  });
});
