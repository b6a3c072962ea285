import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { keccak256, toUtf8Bytes } from "ethers";
import { expectError, expectOk, expectRevert, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// The batch build routes (mint-batch, settle-batch, expire-batch) build
// one transaction of the PSPVault's batch forms (docs/rules.md#batch-forms); signed, broadcast,
// and checked against the balances.
describe("e2e: pSP batch routes, signed and broadcast", () => {
  let e: E2E;
  const BULK = keccak256(toUtf8Bytes("bulk"));

  before(async () => {
    e = await setupE2E();
    const { brand, carol } = e.who;
    await e.giveSp(brand.address, SP(100));
    await e.giveSp(carol.address, SP(1)); // carol may receive settled SP
    await (await e.c.points.connect(brand).approve(e.record.pspVault, SP(50))).wait();
    await (await e.c.pspVault.connect(brand).createCampaign(BULK, SP(50), [carol.address], [], "bulk")).wait();
  });
  after(() => e?.stop());

  const post = (name: Parameters<E2E["call"]>[0], body: Record<string, unknown>) => e.call(name, { body });
  const psp = (holder: string) => e.c.pspVault.balanceOf(BULK, holder);
  const row = (to: string, amount: bigint) => ({ to, amount: amount.toString() });

  it("mintBatch_issuesEveryRow_inOneTransaction_withOnePSPMintedPerRow", async () => {
    const { brand, alice, bob } = e.who;
    const res = await post("pspMintBatch", {
      campaignId: "bulk",
      rows: [row(alice.address, SP(3)), row(bob.address, SP(2)), row(alice.address, SP(1))],
      metadata: "drop",
      from: brand.address,
    });
    const data = expectOk("pspMintBatch", res);
    assert.equal(data.call.function, "mintBatch");
    assert.deepEqual(data.call.args, [
      BULK,
      [alice.address, bob.address, alice.address],
      [SP(3), SP(2), SP(1)].map(String),
      "drop",
    ]);
    const receipt = await e.send(brand, data);
    const minted = receipt.logs.filter((l) => l.address.toLowerCase() === e.record.pspVault.toLowerCase());
    assert.equal(minted.length, 3);
    assert.equal(await psp(alice.address), SP(4));
    assert.equal(await psp(bob.address), SP(2));
    const c = await e.c.pspVault.getCampaign(BULK);
    assert.deepEqual([c.available, c.outstanding], [SP(44), SP(6)]);
  });

  it("mintBatch_byADelegatedMinter_overItsLimitByTheBatchTotal_is422MinterLimitExceeded", async () => {
    const { brand, outsider, alice, bob } = e.who;
    const limit = { campaignId: "bulk", minter: outsider.address, limit: SP(3).toString(), active: true };
    await e.send(
      brand,
      expectOk("pspConfigureMinter", await post("pspConfigureMinter", { ...limit, from: brand.address })),
    );
    const batch = (amounts: bigint[]) =>
      post("pspMintBatch", {
        campaignId: "bulk",
        rows: [row(alice.address, amounts[0]), row(bob.address, amounts[1])],
        metadata: "",
        from: outsider.address,
      });
    expectRevert(await batch([SP(2), SP(1) + 1n]), "pspVault", "MinterLimitExceeded", {
      campaignId: BULK,
      minter: outsider.address,
      limit: SP(3).toString(),
      issued: "0",
      amount: (SP(3) + 1n).toString(),
    });
    await e.send(outsider, expectOk("pspMintBatch", await batch([SP(2), SP(1)])));
    assert.equal(await psp(bob.address), SP(3));
  });

  it("settleBatch_sendsEveryRowsSp_toItsReceiver", async () => {
    const { brand, alice, bob, carol } = e.who;
    const spBefore = await e.c.points.balanceOf(carol.address);
    const rows = [
      { holder: alice.address, receiver: carol.address, amount: SP(1).toString() },
      { holder: bob.address, receiver: carol.address, amount: SP(2).toString() },
    ];
    const res = await post("pspSettleBatch", { campaignId: "bulk", rows, metadata: "paid", from: brand.address });
    const data = expectOk("pspSettleBatch", res);
    assert.deepEqual(data.call.args, [
      [alice.address, bob.address],
      [carol.address, carol.address],
      [SP(1), SP(2)].map(String),
      BULK,
      "paid",
    ]);
    await e.send(brand, data);
    assert.equal(await e.c.points.balanceOf(carol.address), spBefore + SP(3));
    assert.deepEqual([await psp(alice.address), await psp(bob.address)], [SP(5), SP(1)]);
  });

  it("settleBatch_withOneReceiverNotOnTheSettlementWhitelist_is422_andBuildsNothing", async () => {
    const { brand, alice, bob, carol } = e.who;
    const rows = [
      { holder: alice.address, receiver: carol.address, amount: "1" },
      { holder: alice.address, receiver: bob.address, amount: "1" },
    ];
    expectRevert(
      await post("pspSettleBatch", { campaignId: "bulk", rows, metadata: "", from: brand.address }),
      "pspVault",
      "SettlementReceiverNotWhitelisted",
      { campaignId: BULK, receiver: bob.address },
    );
  });

  it("expireBatch_returnsEveryRowToTheAvailableBudget", async () => {
    const { brand, alice, bob } = e.who;
    const before = await e.c.pspVault.getCampaign(BULK);
    const rows = [
      { holder: alice.address, amount: SP(5).toString() },
      { holder: bob.address, amount: SP(1).toString() },
    ];
    await e.send(
      brand,
      expectOk(
        "pspExpireBatch",
        await post("pspExpireBatch", { campaignId: "bulk", rows, metadata: "", from: brand.address }),
      ),
    );
    assert.deepEqual([await psp(alice.address), await psp(bob.address)], [0n, 0n]);
    const c = await e.c.pspVault.getCampaign(BULK);
    assert.deepEqual([c.available, c.outstanding], [before.available + SP(6), before.outstanding - SP(6)]);
  });

  it("batchRoutes_refuseAnEmptyBatch_andABadRow_with400", async () => {
    const { brand, alice } = e.who;
    const empty = await post("pspMintBatch", { campaignId: "bulk", rows: [], metadata: "", from: brand.address });
    expectError(empty, 400, "INVALID_INPUT");
    const zero = await post("pspExpireBatch", {
      campaignId: "bulk",
      rows: [{ holder: alice.address, amount: "0" }],
      metadata: "",
      from: brand.address,
    });
    expectError(zero, 400, "INVALID_INPUT");
  });
});
