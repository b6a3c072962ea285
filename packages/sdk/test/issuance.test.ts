import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { JsonRpcProvider, Transaction, Wallet, id, parseUnits } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import { broadcast, createClient, orderHash, PointsApiError, waitForReceipt, type Order } from "../src/index.js";
import { type Live, liveWithCampaign } from "./helpers/live.js";
import { assertOrderReused, countingClient, forgetKey, ledgerPast, SALT } from "./helpers/orders.js";

const SP = (n: number) => parseUnits(String(n), 18);
const CAMPAIGN = id("orders");

/** A provider whose broadcasts fail the first time for the chosen transactions. */
class FlakyProvider extends JsonRpcProvider {
  readonly failed = new Set<string>();
  constructor(
    url: string,
    private readonly failFirst: (raw: string, count: number) => "before" | "after" | undefined,
  ) {
    super(url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  }
  private count = 0;
  override async broadcastTransaction(raw: string) {
    const hash = Transaction.from(raw).hash!;
    const how = this.failed.has(hash) ? undefined : this.failFirst(raw, this.count++);
    if (how) this.failed.add(hash);
    if (how === "before") throw new Error("socket hang up");
    const sent = await super.broadcastTransaction(raw);
    if (how === "after") throw new Error("connection reset after the node took it");
    return sent;
  }
}

describe("issuing points for orders: exactly once on retry and under concurrency", () => {
  let live: Live;
  let vault: ReturnType<typeof PSPVault__factory.connect>;
  before(async () => {
    live = await liveWithCampaign(parseUnits("200", 6), "orders", SP(150));
    vault = PSPVault__factory.connect(live.program.pspVault, live.node.provider);
  });
  after(() => live?.stop());

  const order = (ref: string, to: string, amount: number): Order => ({
    orderRef: ref,
    campaignId: "orders",
    to,
    amount: SP(amount), // a bigint: sent as its decimal digits
  });
  const psp = (holder: string) => vault.balanceOf(CAMPAIGN, holder);
  const nonceOf = async (hash: string) => (await live.node.provider.getTransaction(hash))!.nonce;

  it("signSplit_theHashIsKnownBeforeBroadcast_andBroadcastingAMinedTransactionAgainReturnsItsReceipt", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    const tx = await live.client.vault.mint("orders", to, SP(1).toString(), "", { from: brand.address });
    const signed = await tx.sign(brand);
    assert.equal(signed.hash, Transaction.from(signed.raw).hash);
    assert.equal(await live.node.provider.getTransaction(signed.hash), null);
    await broadcast(live.node.provider, signed);
    const receipt = await waitForReceipt(live.node.provider, signed.hash);
    assert.equal(receipt.status, 1);
    await broadcast(live.node.provider, signed);
    const again = await tx.send(brand);
    assert.equal(again.hash, receipt.hash);
    assert.equal(await psp(to), SP(1));
  });

  it("theSameOrderThreeTimes_oneFromAFreshClient_issuesOnce_andEveryCallReturnsThatIssuance", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    const o = order("retry-1", to, 3);
    const first = await live.client.issuer(brand, { salt: SALT }).issue(o);
    const second = await live.client.issuer(brand, { salt: SALT }).issue(o);
    const restarted = createClient({ baseUrl: live.api.url, apiKey: live.apiKey });
    const third = await restarted.issuer(brand, { salt: SALT }).issue(o);
    assert.equal(second.receipt.hash, first.receipt.hash);
    assert.equal(third.receipt.hash, first.receipt.hash);
    assert.equal(first.orderHash, orderHash(SALT, "retry-1"));
    assert.equal(await psp(to), SP(3));
    const minted = await vault.queryFilter(vault.filters.PSPMinted(CAMPAIGN, undefined, to));
    assert.equal(minted.length, 1);
    const metadata = (await live.node.provider.getTransaction(first.receipt.hash))!.data;
    assert.ok(!metadata.includes(Buffer.from("retry-1").toString("hex")), "the raw order id must not be on chain");
    assert.ok(metadata.includes(Buffer.from(`order:${first.orderHash}`).toString("hex")));
  });

  it("theSameOrderPastTheKeysWindow_onceTheLedgerHasIt_returnsItsOneIssuance_andBuildsNothing", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    const first = await live.client.issuer(brand, { salt: SALT }).issue(order("late-1", to, 3));
    assert.equal(first.fromLedger, false);
    await ledgerPast(live, live.client, "late-1", to, first.receipt.blockNumber);
    // The API forgot the key (its 24 h window passed): the ledger still knows the order.
    await forgetKey(live, `order-${first.orderHash.slice(2)}`);
    const nonce = await live.node.provider.getTransactionCount(brand.address, "pending");
    const later = countingClient(live);
    const again = await later.client.issuer(brand, { salt: SALT }).issue(order("late-1", to, 3));
    assert.equal(again.receipt.hash, first.receipt.hash);
    assert.equal(again.fromLedger, true);
    assert.ok(again.ledgerBlock !== null && again.ledgerBlock >= first.receipt.blockNumber);
    assert.deepEqual(later.builds, []);
    assert.equal(await live.node.provider.getTransactionCount(brand.address, "pending"), nonce);
    assert.equal(await psp(to), SP(3));
  });

  it("theSameOrderIssuedAgainWithOtherTerms_onceTheLedgerHasIt_isConflict_andNothingIsSent", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    const first = await live.client.issuer(brand, { salt: SALT }).issue(order("terms-issue", to, 2));
    await ledgerPast(live, live.client, "terms-issue", to, first.receipt.blockNumber);
    const nonce = await live.node.provider.getTransactionCount(brand.address, "pending");
    const later = countingClient(live);
    for (const changed of [{ amount: SP(5) }, { campaignId: id("another") }]) {
      await assertOrderReused(
        later.client.issuer(brand, { salt: SALT }).issue({ ...order("terms-issue", to, 2), ...changed }),
        first.receipt.hash,
      );
    }
    assert.deepEqual(later.builds, []);
    assert.equal(await live.node.provider.getTransactionCount(brand.address, "pending"), nonce);
    assert.equal(await psp(to), SP(2));
  });

  it("ordersFind_answersFromTheLedger_theOneIssuanceOfAnIssuedOrder_andNoneForAnotherReferenceOrSalt", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    const issued = await live.client.issuer(brand, { salt: SALT }).issue(order("find-1", to, 2));
    // A second order of the same customer, so the search must tell orders apart by their hash.
    await live.client.issuer(brand, { salt: SALT }).issue(order("find-2", to, 1));
    // The in-process indexer follows the chain two blocks deep.
    await live.node.mine(2);
    let found = await live.client.orders.find("find-1", { salt: SALT, to });
    while (found.ledgerBlock === null || found.ledgerBlock < issued.receipt.blockNumber + 1) {
      await new Promise((r) => setTimeout(r, 50));
      found = await live.client.orders.find("find-1", { salt: SALT, to });
    }
    assert.equal(found.orderHash, issued.orderHash);
    assert.deepEqual(
      found.issuances.map((i) => [i.txHash, i.blockNumber, i.campaignId, i.amount, i.minter]),
      [[issued.receipt.hash, issued.receipt.blockNumber, CAMPAIGN, SP(2).toString(), brand.address]],
    );
    // The lookup asks for its three tags only (one filtered read each), not the whole history.
    const reads: string[] = [];
    const recording = createClient({
      baseUrl: live.api.url,
      apiKey: live.apiKey,
      fetch: (input, init) => {
        const url = new URL(String(input instanceof Request ? input.url : input));
        if (url.pathname.endsWith("/history")) reads.push(url.searchParams.get("metadata") ?? "(none)");
        return fetch(input, init);
      },
    });
    const again = await recording.orders.find("find-1", { salt: SALT, to });
    assert.deepEqual(again.issuances, found.issuances);
    assert.deepEqual(reads.sort(), [
      `clawback:${issued.orderHash}`,
      `order:${issued.orderHash}`,
      `settle:${issued.orderHash}`,
    ]);
    const other = await live.client.orders.find("find-3", { salt: SALT, to });
    assert.deepEqual(other.issuances, [], "an order never issued");
    const wrongSalt = await live.client.orders.find("find-1", { salt: "another-salt-0123456789", to });
    assert.deepEqual(wrongSalt.issuances, [], "another issuer's salt finds nothing");
    await assert.rejects(live.client.orders.find("find-1", { salt: "short", to }), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.equal(e.code, "INVALID_INPUT");
      return true;
    });
  });

  it("fiftyConcurrentOrdersFromOneSigner_someRetried_someWhoseBroadcastFailsOnce_eachIssuedOnce_noNonceGap", async () => {
    const brandKey = live.actors.brand.privateKey;
    const flaky = new FlakyProvider(live.node.url, (_raw, n) =>
      n % 7 === 3 ? "before" : n % 7 === 5 ? "after" : undefined,
    );
    const signer = new Wallet(brandKey, flaky);
    const issuer = live.client.issuer(signer, { salt: SALT });
    const start = await live.node.provider.getTransactionCount(signer.address, "latest");
    const holders = Array.from({ length: 50 }, () => Wallet.createRandom().address);
    const orders = holders.map((to, i) => order(`concurrent-${i}`, to, 1 + (i % 2)));
    // Every fifth order is submitted twice at once.
    const calls = orders.flatMap((o, i) => (i % 5 === 0 ? [issuer.issue(o), issuer.issue(o)] : [issuer.issue(o)]));
    const results = await Promise.all(calls);
    // Every seventh order is retried after the others, through a second issuer of the same signer.
    const later = await Promise.all(
      orders.filter((_, i) => i % 7 === 0).map((o) => live.client.issuer(signer, { salt: SALT }).issue(o)),
    );

    assert.ok(flaky.failed.size >= 10, `broadcast failures injected: ${flaky.failed.size}`);
    const hashes = new Set([...results, ...later].map((r) => r.receipt.hash));
    assert.equal(hashes.size, 50);
    for (const [i, to] of holders.entries()) assert.equal(await psp(to), SP(1 + (i % 2)), `order ${i}`);
    const nonces = (await Promise.all([...hashes].map(nonceOf))).sort((a, b) => a - b);
    assert.deepEqual(
      nonces,
      Array.from({ length: 50 }, (_, i) => start + i),
    );
    assert.equal(await live.node.provider.getTransactionCount(signer.address, "latest"), start + 50);
  });

  it("aNonceTakenOutsideTheQueue_isRebuiltWithTheNextOne_andIssuesOnce", async () => {
    const { brand } = live.actors;
    const issuer = live.client.issuer(brand, { salt: SALT });
    await issuer.issue(order("outside-0", Wallet.createRandom().address, 1));
    // Another sender spends the queue's next nonce.
    await (await brand.sendTransaction({ to: brand.address, value: 0n })).wait();
    const next = await live.node.provider.getTransactionCount(brand.address, "latest");
    const to = Wallet.createRandom().address;
    const issued = await issuer.issue(order("outside-1", to, 2));
    assert.equal(await nonceOf(issued.receipt.hash), next);
    assert.equal(await psp(to), SP(2));
  });

  it("aSignedTransactionWhoseNonceIsTakenBeforeBroadcast_isRebuilt_andALaterRetryFindsTheRebuiltOne", async () => {
    const { brand } = live.actors;
    const to = Wallet.createRandom().address;
    let stolen = false;
    const issuer = live.client.issuer(brand, {
      salt: SALT,
      // Between signing and broadcasting, another transaction takes the same nonce.
      onSigned: async (signed) => {
        if (stolen) return;
        stolen = true;
        const other = await brand.sendTransaction({ to: brand.address, value: 0n, nonce: signed.nonce });
        await other.wait();
      },
    });
    const o = order("stolen-1", to, 4);
    const issued = await issuer.issue(o);
    assert.equal(stolen, true);
    const retried = await createClient({ baseUrl: live.api.url, apiKey: live.apiKey })
      .issuer(brand, { salt: SALT })
      .issue(o);
    assert.equal(retried.receipt.hash, issued.receipt.hash);
    assert.equal(await psp(to), SP(4));
  });

  it("miningStopped_anAbortedIssue_isAbortedAtBroadcast_withItsHash_andTheSameOrderLaterReturnsThatOneTransaction", async () => {
    const { brand, carol } = live.actors;
    const o = order("ORD-STALLED", carol.address, 2);
    const before = await psp(carol.address);
    await live.node.setAutomine(false);
    try {
      const stop = new AbortController();
      const issuing = live.client.issuer(brand, { salt: SALT, signal: stop.signal }).issue(o);
      setTimeout(() => stop.abort(new Error("order desk closing")), 1500);
      const e = await issuing.then(
        () => assert.fail("resolved although nothing was mined"),
        (x: unknown) => x,
      );
      assert.ok(e instanceof PointsApiError);
      assert.equal(e.code, "ABORTED");
      const { state, hash } = e.details as { state: string; hash: string };
      assert.equal(state, "broadcast");
      assert.ok(await live.node.provider.getTransaction(hash), "the broadcast transaction is pending on the node");
      await live.node.mine(1);
      const again = await live.client.issuer(brand, { salt: SALT }).issue(o);
      assert.equal(again.receipt.hash, hash);
    } finally {
      await live.node.setAutomine(true);
    }
    assert.equal(await psp(carol.address), before + SP(2));
  });
});
