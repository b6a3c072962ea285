import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { JsonRpcProvider, Wallet, id, parseUnits } from "ethers";
import { Points__factory, PSPVault__factory } from "@points/contracts";
import { createClient, orderHash, PointsApiError, type PointsClient } from "../src/index.js";
import { type Live, liveWithCampaign } from "./helpers/live.js";
import {
  assertOrderReused,
  countingClient as counting,
  forgetKey as forgetKeyOf,
  ledgerPast as ledgerPastOf,
  SALT,
} from "./helpers/orders.js";

const SP = (n: number) => parseUnits(String(n), 18);
const CAMPAIGN = id("orders");

/** A provider whose chosen broadcasts reach the node and then "crash" the process (abort its signal). */
class CrashAfterBroadcast extends JsonRpcProvider {
  readonly stop = new AbortController();
  constructor(url: string) {
    super(url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  }
  override async broadcastTransaction(raw: string) {
    const sent = await super.broadcastTransaction(raw);
    this.stop.abort(new Error("process killed after the broadcast"));
    return sent;
  }
}

describe("settling and clawing back orders: exactly once per order reference", () => {
  let live: Live;
  let vault: ReturnType<typeof PSPVault__factory.connect>;
  let sp: ReturnType<typeof Points__factory.connect>;
  let receiver: string;
  before(async () => {
    live = await liveWithCampaign(parseUnits("200", 6), "orders", SP(150));
    vault = PSPVault__factory.connect(live.program.pspVault, live.node.provider);
    sp = Points__factory.connect(live.program.points, live.node.provider);
    const { brand } = live.actors;
    receiver = Wallet.createRandom().address;
    const from = { from: brand.address };
    await (await live.client.vault.updateSettlementWhitelist("orders", receiver, true, from)).send(brand);
    await (await live.client.points.addToTransferWhitelist(receiver, from)).send(brand);
  });
  after(() => live?.stop());

  const psp = (holder: string) => vault.balanceOf(CAMPAIGN, holder);
  const available = async () => (await vault.getCampaign(CAMPAIGN)).available;
  /** A fresh customer holding `amount` SP of pSP, issued for order `ref`. */
  const issued = async (ref: string, amount: number) => {
    const to = Wallet.createRandom().address;
    await live.client
      .issuer(live.actors.brand, { salt: SALT })
      .issue({ orderRef: ref, campaignId: "orders", to, amount: SP(amount) });
    return to;
  };
  const countingClient = () => counting(live);
  const ledgerPast = (client: PointsClient, ref: string, to: string, block: number) =>
    ledgerPastOf(live, client, ref, to, block);
  const forgetKey = (key: string) => forgetKeyOf(live, key);
  const settledEvents = async (holder: string) =>
    (await vault.queryFilter(vault.filters.PSPSettled(CAMPAIGN, holder))).map((e) => [e.args.amount, e.args.metadata]);
  const expiredEvents = async (holder: string) =>
    (await vault.queryFilter(vault.filters.PSPExpired(CAMPAIGN, holder))).map((e) => [e.args.amount, e.args.metadata]);
  const invalidInput = (e: unknown) => {
    assert.ok(e instanceof PointsApiError);
    assert.equal(e.code, "INVALID_INPUT");
    return true;
  };

  it("settleTwiceInARow_andTwiceAtOnce_settlesOnce_underItsOwnKeyAndMetadata", async () => {
    const { brand } = live.actors;
    const holder = await issued("settle-1", 5);
    const receiverBefore = await sp.balanceOf(receiver);
    const issuer = live.client.issuer(brand, { salt: SALT });
    const s = { orderRef: "settle-1", campaignId: "orders", holder, receiver, amount: SP(3) };
    const first = await issuer.settle(s);
    const second = await issuer.settle(s);
    // At once: two calls of one issuer and one of another issuer of the same signer (one queue).
    const atOnce = await Promise.all([
      issuer.settle(s),
      issuer.settle(s),
      live.client.issuer(brand, { salt: SALT }).settle(s),
    ]);
    for (const r of [second, ...atOnce]) assert.equal(r.receipt.hash, first.receipt.hash);
    assert.equal(first.orderHash, orderHash(SALT, "settle-1"));
    assert.equal(first.fromLedger, false);
    assert.equal(await psp(holder), SP(2));
    assert.equal(await sp.balanceOf(receiver), receiverBefore + SP(3));
    assert.deepEqual(await settledEvents(holder), [[SP(3), `settle:${first.orderHash}`]]);
    const data = (await live.node.provider.getTransaction(first.receipt.hash))!.data;
    assert.ok(!data.includes(Buffer.from("settle-1").toString("hex")), "the raw order id must not be on chain");
  });

  it("settleAfterACrash_aFreshClientWhileTheFirstIsPending_andPastTheKeysWindowOnceTheLedgerHasIt_returnsTheOneSettlement", async () => {
    const holder = await issued("settle-crash", 8);
    const receiverBefore = await sp.balanceOf(receiver);
    const s = { orderRef: "settle-crash", campaignId: "orders", holder, receiver, amount: SP(4) };
    const crashing = new CrashAfterBroadcast(live.node.url);
    const signer = new Wallet(live.actors.brand.privateKey, crashing);
    let hash: string;
    await live.node.setAutomine(false);
    try {
      const e = await live.client
        .issuer(signer, { salt: SALT, signal: crashing.stop.signal })
        .settle(s)
        .then(
          () => assert.fail("resolved although nothing was mined"),
          (x: unknown) => x,
        );
      assert.ok(e instanceof PointsApiError);
      assert.equal(e.code, "ABORTED");
      ({ hash } = e.details as { state: string; hash: string });
      assert.equal((e.details as { state: string }).state, "broadcast");
      assert.ok(await live.node.provider.getTransaction(hash), "the broadcast settlement is pending on the node");
      // A new process: a new client, a new queue; the ledger cannot have the pending one.
      const restarted = countingClient();
      const again = restarted.client.issuer(live.actors.brand, { salt: SALT }).settle(s);
      await live.node.mine(1);
      const r = await again;
      assert.equal(r.receipt.hash, hash);
      assert.equal(r.fromLedger, false);
      assert.ok(restarted.builds.length >= 1, "answered by the API's Idempotency-Key");
    } finally {
      await live.node.setAutomine(true);
    }
    const mined = (await live.node.provider.getTransactionReceipt(hash))!;
    await ledgerPast(live.client, "settle-crash", holder, mined.blockNumber);
    // Past the API's idempotency window, a new process finds it in the ledger and builds nothing.
    await forgetKey(`settle-${orderHash(SALT, "settle-crash").slice(2)}`);
    const later = countingClient();
    const r = await later.client.issuer(live.actors.brand, { salt: SALT }).settle(s);
    assert.equal(r.receipt.hash, hash);
    assert.equal(r.fromLedger, true);
    assert.ok(r.ledgerBlock !== null && r.ledgerBlock >= mined.blockNumber);
    assert.deepEqual(later.builds, []);
    assert.equal(await psp(holder), SP(4));
    assert.equal(await sp.balanceOf(receiver), receiverBefore + SP(4));
    assert.deepEqual(await settledEvents(holder), [[SP(4), `settle:${r.orderHash}`]]);
  });

  it("clawbackTwiceInARow_twiceAtOnce_andPastTheKeysWindowOnceTheLedgerHasIt_clawsBackOnce", async () => {
    const { brand } = live.actors;
    const holder = await issued("claw-1", 10);
    const availableBefore = await available();
    const c = { orderRef: "claw-1", campaignId: CAMPAIGN, holder, amount: SP(4) };
    const issuer = live.client.issuer(brand, { salt: SALT });
    const first = await issuer.clawback(c);
    const second = await issuer.clawback(c);
    const atOnce = await Promise.all([issuer.clawback(c), live.client.issuer(brand, { salt: SALT }).clawback(c)]);
    for (const r of [second, ...atOnce]) assert.equal(r.receipt.hash, first.receipt.hash);
    assert.equal(first.fromLedger, false);
    await ledgerPast(live.client, "claw-1", holder, first.receipt.blockNumber);
    await forgetKey(`clawback-${first.orderHash.slice(2)}`);
    const later = countingClient();
    const fromLedger = await later.client.issuer(brand, { salt: SALT }).clawback(c);
    assert.equal(fromLedger.receipt.hash, first.receipt.hash);
    assert.equal(fromLedger.fromLedger, true);
    assert.deepEqual(later.builds, []);
    assert.equal(await psp(holder), SP(6));
    assert.equal(await available(), availableBefore + SP(4));
    assert.deepEqual(await expiredEvents(holder), [[SP(4), `clawback:${first.orderHash}`]]);
  });

  it("clawbackAfterACrashWhileItIsPending_aFreshClientReturnsThatOneTransaction", async () => {
    const holder = await issued("claw-crash", 3);
    const availableBefore = await available();
    const c = { orderRef: "claw-crash", campaignId: "orders", holder, amount: SP(3) };
    const crashing = new CrashAfterBroadcast(live.node.url);
    const signer = new Wallet(live.actors.brand.privateKey, crashing);
    await live.node.setAutomine(false);
    let hash: string;
    try {
      const e = await live.client
        .issuer(signer, { salt: SALT, signal: crashing.stop.signal })
        .clawback(c)
        .then(
          () => assert.fail("resolved although nothing was mined"),
          (x: unknown) => x,
        );
      assert.ok(e instanceof PointsApiError);
      assert.equal(e.code, "ABORTED");
      ({ hash } = e.details as { hash: string });
      const again = createClient({ baseUrl: live.api.url, apiKey: live.apiKey })
        .issuer(live.actors.brand, { salt: SALT })
        .clawback(c);
      await live.node.mine(1);
      assert.equal((await again).receipt.hash, hash);
    } finally {
      await live.node.setAutomine(true);
    }
    assert.equal(await psp(holder), 0n);
    assert.equal(await available(), availableBefore + SP(3));
    assert.equal((await expiredEvents(holder)).length, 1);
  });

  it("anotherReferenceOrSalt_isAnotherOrder_andTheIssuanceSettlementAndClawbackOfOneOrderNeverShareAKey", async () => {
    const { brand } = live.actors;
    const holder = Wallet.createRandom().address;
    const issuer = live.client.issuer(brand, { salt: SALT });
    const issuedA = await issuer.issue({ orderRef: "mix-A", campaignId: "orders", to: holder, amount: SP(5) });
    await issuer.issue({ orderRef: "mix-B", campaignId: "orders", to: holder, amount: SP(5) });
    const receiverBefore = await sp.balanceOf(receiver);
    const settledA = await issuer.settle({ orderRef: "mix-A", campaignId: "orders", holder, receiver, amount: SP(2) });
    const settledB = await issuer.settle({ orderRef: "mix-B", campaignId: "orders", holder, receiver, amount: SP(1) });
    const clawedA = await issuer.clawback({ orderRef: "mix-A", campaignId: "orders", holder, amount: SP(3) });
    const hashes = new Set([issuedA.receipt.hash, settledA.receipt.hash, settledB.receipt.hash, clawedA.receipt.hash]);
    assert.equal(hashes.size, 4, "each action of each order is its own transaction");
    assert.equal(settledA.orderHash, issuedA.orderHash);
    assert.notEqual(settledB.orderHash, settledA.orderHash);
    assert.equal(await psp(holder), SP(10 - 2 - 1 - 3));
    assert.equal(await sp.balanceOf(receiver), receiverBefore + SP(3));

    const found = await ledgerPast(live.client, "mix-A", holder, clawedA.receipt.blockNumber);
    assert.deepEqual(
      found.issuances.map((i) => [i.txHash, i.amount]),
      [[issuedA.receipt.hash, SP(5).toString()]],
    );
    assert.deepEqual(
      found.settlements.map((i) => [i.txHash, i.blockNumber, i.campaignId, i.amount, i.receiver]),
      [[settledA.receipt.hash, settledA.receipt.blockNumber, CAMPAIGN, SP(2).toString(), receiver]],
    );
    assert.deepEqual(
      found.clawbacks.map((i) => [i.txHash, i.campaignId, i.amount]),
      [[clawedA.receipt.hash, CAMPAIGN, SP(3).toString()]],
    );
    const otherSalt = await live.client.orders.find("mix-A", { salt: "another-salt-0123456789", to: holder });
    assert.deepEqual([otherSalt.issuances, otherSalt.settlements, otherSalt.clawbacks], [[], [], []]);

    // Another salt is another order: it is not answered by order A's settlement.
    const before = await psp(holder);
    const other = await live.client
      .issuer(brand, { salt: "another-salt-0123456789" })
      .settle({ orderRef: "mix-A", campaignId: "orders", holder, receiver, amount: SP(1) });
    assert.notEqual(other.receipt.hash, settledA.receipt.hash);
    assert.equal(other.fromLedger, false);
    assert.equal(await psp(holder), before - SP(1));
  });

  it("theSameOrderSettledAgainWithOtherTerms_onceTheLedgerHasIt_isConflict_andNothingIsSent", async () => {
    const { brand } = live.actors;
    const holder = await issued("terms-1", 5);
    const s = { orderRef: "terms-1", campaignId: "orders", holder, receiver, amount: SP(2) };
    const first = await live.client.issuer(brand, { salt: SALT }).settle(s);
    await ledgerPast(live.client, "terms-1", holder, first.receipt.blockNumber);
    const nonce = await live.node.provider.getTransactionCount(brand.address, "pending");
    const later = countingClient();
    for (const changed of [{ amount: SP(3) }, { campaignId: id("another") }, { receiver: brand.address }]) {
      await assertOrderReused(
        later.client.issuer(brand, { salt: SALT }).settle({ ...s, ...changed }),
        first.receipt.hash,
      );
    }
    assert.deepEqual(later.builds, []);
    assert.equal(await live.node.provider.getTransactionCount(brand.address, "pending"), nonce);
    assert.equal(await psp(holder), SP(3));
  });

  it("theLedgerHasTheSettlementButTheSignersNodeHasNoReceipt_isChainUnavailable_andNothingIsSent", async () => {
    const { brand } = live.actors;
    const holder = await issued("lagging-1", 5);
    const s = { orderRef: "lagging-1", campaignId: "orders", holder, receiver, amount: SP(2) };
    const first = await live.client.issuer(brand, { salt: SALT }).settle(s);
    await ledgerPast(live.client, "lagging-1", holder, first.receipt.blockNumber);
    await forgetKey(`settle-${first.orderHash.slice(2)}`);
    // A node behind the ledger (another RPC of the signer's that has not got the block yet).
    class Lagging extends JsonRpcProvider {
      override async getTransactionReceipt(hash: string) {
        return hash === first.receipt.hash ? null : super.getTransactionReceipt(hash);
      }
    }
    const signer = new Wallet(brand.privateKey, new Lagging(live.node.url, undefined, { staticNetwork: true }));
    const nonce = await live.node.provider.getTransactionCount(brand.address, "pending");
    const later = countingClient();
    await assert.rejects(later.client.issuer(signer, { salt: SALT }).settle(s), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.equal(e.code, "CHAIN_UNAVAILABLE");
      assert.deepEqual(e.details, { hash: first.receipt.hash });
      return true;
    });
    assert.deepEqual(later.builds, []);
    assert.equal(await live.node.provider.getTransactionCount(brand.address, "pending"), nonce);
    assert.equal(await psp(holder), SP(3));
  });

  it("invalidInput_aShortSalt_anEmptyReference_aBadHolderOrAmount_isInvalidInput_beforeAnyRequest", async () => {
    const { brand } = live.actors;
    const holder = Wallet.createRandom().address;
    const s = { orderRef: "bad-1", campaignId: "orders", holder, receiver, amount: SP(1) };
    const counted = countingClient();
    const nonce = await live.node.provider.getTransactionCount(brand.address, "pending");
    const good = counted.client.issuer(brand, { salt: SALT });
    const short = counted.client.issuer(brand, { salt: "short" });
    await assert.rejects(short.settle(s), invalidInput);
    await assert.rejects(short.clawback(s), invalidInput);
    await assert.rejects(good.settle({ ...s, orderRef: "" }), invalidInput);
    await assert.rejects(good.clawback({ ...s, orderRef: "" }), invalidInput);
    await assert.rejects(good.settle({ ...s, holder: "not-an-address" }), invalidInput);
    await assert.rejects(good.settle({ ...s, receiver: "0x1234" }), invalidInput);
    await assert.rejects(good.clawback({ ...s, amount: "0" }), invalidInput);
    await assert.rejects(counted.client.orders.find("bad-1", { salt: SALT, to: "nope" }), invalidInput);
    assert.deepEqual(counted.builds, []);
    assert.equal(await live.node.provider.getTransactionCount(brand.address, "pending"), nonce);
  });
});
