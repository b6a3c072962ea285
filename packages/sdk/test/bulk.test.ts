import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { JsonRpcProvider, Transaction, Wallet, getAddress, id, keccak256, parseUnits, toUtf8Bytes } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import { PointsApiError, type BulkProgress } from "../src/index.js";
import { type Live, liveWithCampaign } from "./helpers/live.js";

const SP = (n: string) => parseUnits(n, 18);
const CAMPAIGN = id("drops");
const to = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => getAddress("0x" + keccak256(toUtf8Bytes(`${seed}:${i}`)).slice(-40)));

/** A provider whose broadcast of the `nth` transaction reaches the node, then fails on the way back. */
class LostAnswerProvider extends JsonRpcProvider {
  private count = 0;
  constructor(
    url: string,
    private readonly nth: number,
  ) {
    super(url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  }
  override async broadcastTransaction(raw: string) {
    const sent = await super.broadcastTransaction(raw);
    if (++this.count === this.nth)
      throw new Error(`connection reset after the node took ${Transaction.from(raw).hash}`);
    return sent;
  }
}

// client.bulk (docs/rules.md#bulk-requests): a plan's chunks sent in order, and a failure midway
// resumed with the same plan without issuing any chunk twice; balances checked on chain.
describe("sdk: bulk issuance with resume", () => {
  let live: Live;
  let vault: ReturnType<typeof PSPVault__factory.connect>;
  before(async () => {
    live = await liveWithCampaign(parseUnits("1000", 6), "drops", SP("900"));
    vault = PSPVault__factory.connect(live.program.pspVault, live.node.provider);
  });
  after(() => live?.stop());

  const plan = (recipients: string[], bulkId: string) =>
    live.client.bulk.mint({
      campaignId: "drops",
      recipients: recipients.map((a, i) => `${a},${i % 3}.25`).join("\n"),
      bulkId,
      gasCeiling: 1_000_000,
      from: live.actors.brand.address,
    });
  const expectBalances = async (recipients: string[]) => {
    for (const [i, a] of recipients.entries()) assert.equal(await vault.balanceOf(CAMPAIGN, a), SP(`${i % 3}.25`), a);
  };

  it("send_aSignerThatFailsAfterChunk1_throws_thenTheSamePlanResumes_andEveryoneIsPaidOnce", async () => {
    const recipients = to(90, "resume");
    const p = await plan(recipients, "resume-1");
    assert.ok(p.chunkCount >= 3, `${p.chunkCount} chunks`);
    const { brand } = live.actors;
    let signed = 0;
    const flaky = new Wallet(brand.privateKey, live.node.provider);
    flaky.signTransaction = async (tx) => {
      if (++signed === 2) throw new Error("the hardware signer went offline");
      return Wallet.prototype.signTransaction.call(flaky, tx);
    };
    const seen: BulkProgress[] = [];
    await assert.rejects(
      live.client.bulk.send(p, flaky, { onProgress: (x) => seen.push(x) }),
      (e: unknown) => e instanceof PointsApiError && e.code === "WRONG_SIGNER" && /went offline/.test(e.message),
    );
    assert.deepEqual(
      seen.map((s) => [s.index, s.status]),
      [
        [0, "pending"],
        [0, "mined"],
        [1, "failed"],
      ],
    );
    assert.deepEqual([...(await live.client.bulk.landed(p, brand))], [0]);
    const resumed = await live.client.bulk.send(p, brand);
    assert.deepEqual(
      resumed.map((r) => r.status),
      ["landed", ...Array(p.chunkCount - 1).fill("mined")],
    );
    await expectBalances(recipients);
    // A third run finds everything on chain and sends nothing.
    const nonce = await live.node.provider.getTransactionCount(brand.address);
    const again = await live.client.bulk.send(p, brand);
    assert.ok(again.every((r) => r.status === "landed"));
    assert.equal(await live.node.provider.getTransactionCount(brand.address), nonce);
  });

  it("send_aBroadcastWhoseAnswerIsLost_isNotSentAgainOnResume", async () => {
    const recipients = to(60, "lost");
    const p = await plan(recipients, "lost-1");
    const lossy = new Wallet(live.actors.brand.privateKey, new LostAnswerProvider(live.node.url, 2));
    // The SDK sees its broadcast fail, but the node has it: it finds the transaction and goes on.
    const first = await live.client.bulk.send(p, lossy);
    assert.ok(first.every((r) => r.status === "mined"));
    const second = await live.client.bulk.send(p, live.actors.brand);
    assert.ok(second.every((r) => r.status === "landed"));
    await expectBalances(recipients);
    const c = await vault.getCampaign(CAMPAIGN);
    assert.equal(
      c.outstanding,
      SP("0.25") * 30n + SP("1.25") * 30n + SP("2.25") * 30n + SP("0.25") * 20n + SP("1.25") * 20n + SP("2.25") * 20n,
    );
  });

  it("send_aSendOnlySigner_(browser_or_JSON-RPC)_sendsEveryChunkAsBuilt_andPaysEveryoneOnce", async () => {
    const recipients = to(60, "rpc");
    const p = await plan(recipients, "rpc-1");
    assert.ok(p.chunkCount >= 2, `${p.chunkCount} chunks`);
    // The node's unlocked dev account: only eth_sendTransaction, as a browser wallet offers.
    const rpcSigner = await live.node.provider.getSigner(live.actors.brand.address);
    const sent = await live.client.bulk.send(p, rpcSigner);
    assert.deepEqual(
      sent.map((r) => r.status),
      Array(p.chunkCount).fill("mined"),
    );
    for (const [i, r] of sent.entries()) {
      const tx = await live.node.provider.getTransaction(r.hash!);
      assert.equal(tx!.data, Transaction.from("0x" + Buffer.from(p.chunks[i].tx!.tx, "base64").toString("hex")).data);
      assert.equal(tx!.gasLimit, BigInt(p.chunks[i].simulatedGas));
    }
    await expectBalances(recipients);
  });

  it("theSameDropRebuiltWithANewPlan_sendsNothing_andItsDryRunSaysItIsOnChain_andOtherRowsUnderThatIdSendNothingEither", async () => {
    const recipients = to(60, "again");
    const { brand } = live.actors;
    const first = await plan(recipients, "again-1");
    assert.ok(first.chunkCount >= 2, `${first.chunkCount} chunks`);
    assert.ok((await live.client.bulk.send(first, brand)).every((r) => r.status === "mined"));
    await expectBalances(recipients);
    const outstanding = (await vault.getCampaign(CAMPAIGN)).outstanding;
    const nonce = await live.node.provider.getTransactionCount(brand.address);
    // The plan file is lost: the same rows and bulk id are planned again (a later fromBlock).
    const rebuilt = await plan(recipients, "again-1");
    assert.ok(rebuilt.fromBlock > first.fromBlock);
    const dry = await live.client.bulk.mint({
      campaignId: "drops",
      recipients: recipients.map((a, i) => `${a},${i % 3}.25`).join("\n"),
      bulkId: "again-1",
      gasCeiling: 1_000_000,
      dryRun: true,
      from: brand.address,
    });
    assert.deepEqual(
      [...(await live.client.bulk.landed(dry, live.node.provider))].sort((a, b) => a - b),
      first.chunks.map((c) => c.index),
    );
    const again = await live.client.bulk.send(rebuilt, brand);
    assert.deepEqual(
      again.map((r) => r.status),
      Array(rebuilt.chunkCount).fill("landed"),
    );
    assert.equal(await live.node.provider.getTransactionCount(brand.address), nonce);
    await expectBalances(recipients);
    assert.equal((await vault.getCampaign(CAMPAIGN)).outstanding, outstanding);
    // The bulk id is the drop's idempotency key: other rows under a used one send nothing either.
    await assert.rejects(plan(to(3, "other"), "again-1"), (e: PointsApiError) => {
      assert.equal(e.code, "CONFLICT");
      assert.equal((e.details as { reason: string; count: number }).reason, "BULK_ID_REUSED");
      assert.equal((e.details as { reason: string; count: number }).count, 60);
      return true;
    });
    assert.equal(await live.node.provider.getTransactionCount(brand.address), nonce);
  });

  it("send_withAnotherSigner_isWrongSigner_andADryRunHasNothingToSend", async () => {
    const p = await plan(to(2, "wrong"), "wrong-1");
    const { alice, brand } = live.actors;
    await assert.rejects(
      live.client.bulk.send(p, alice),
      (e: unknown) => e instanceof PointsApiError && e.code === "WRONG_SIGNER",
    );
    const dry = await live.client.bulk.mint({
      campaignId: "drops",
      recipients: [{ address: to(1, "dry")[0], amount: "1" }],
      dryRun: true,
      from: brand.address,
    });
    await assert.rejects(
      live.client.bulk.send(dry, brand),
      (e: unknown) => e instanceof PointsApiError && e.code === "INVALID_INPUT",
    );
  });
});
