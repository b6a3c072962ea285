import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { expectError, expectMissingRole, expectOk, expectRevert, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { bearerFor } from "./helpers/service.js";
import { bulkCampaign, CAMPAIGN, CAMPAIGN_ID, pspOf, recipients } from "./helpers/bulk.js";

// Who may use the bulk routes (docs/rules.md#bulk-requests): the chain's issuing authority as
// `from` (manager, issuing admin, campaign admin, delegated minter within its limit), an API key
// with the build scope; wrong accounts and other tenants' keys are tried on every operation.
describe("bulk routes: authority, limits, settle and expire", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E({}, () => ({ RATE_LIMIT_BULK_PER_MINUTE: "1000" }));
    await bulkCampaign(e, SP(100));
    await e.giveSp(e.who.carol.address, SP(1)); // carol may receive SP (Points' transfer allowlist)
  });
  after(() => e?.stop());

  const PATHS = { bulkPspMint: "mint", bulkPspSettle: "settle", bulkPspExpire: "expire" } as const;
  type Op = keyof typeof PATHS;
  const call = (name: Op, body: Record<string, unknown>, headers?: Record<string, string>) =>
    headers ? e.api.call("POST", `/studio/sdk/v1/bulk/psp/${PATHS[name]}`, body, headers) : e.call(name, { body });
  const body = (from: string, rows: [string, string][], extra: Record<string, unknown> = {}) => ({
    campaignId: CAMPAIGN,
    recipients: rows.map(([address, amount]) => ({ address, amount })),
    from,
    ...extra,
  });
  const sendAll = async (plan: { chunks: { tx?: { tx: string } }[] }, wallet = e.who.brand) => {
    for (const ch of plan.chunks) await e.send(wallet, ch.tx!);
  };
  const vault = () => e.c.pspVault.connect(e.who.brand);

  it("mint_byIssuingAdmin_andByCampaignAdmin_builds_andLands", async () => {
    const { alice, bob } = e.who;
    const [x, y] = recipients(2, "auth");
    await (await vault().grantRole(await e.c.pspVault.ISSUING_ADMIN_ROLE(), alice.address)).wait();
    await (await vault().setCampaignAdmin(CAMPAIGN_ID, bob.address, true)).wait();
    await sendAll(expectOk("bulkPspMint", await call("bulkPspMint", body(alice.address, [[x, "1"]]))), alice);
    await sendAll(expectOk("bulkPspMint", await call("bulkPspMint", body(bob.address, [[y, "2"]]))), bob);
    assert.deepEqual([await pspOf(e, x), await pspOf(e, y)], [SP(1), SP(2)]);
  });

  it("mint_byADelegatedMinter_atItsLimit_builds_andOneWeiOver_is422MinterLimitExceeded", async () => {
    const { outsider, brand } = e.who;
    const [x, y] = recipients(2, "minter");
    await (await vault().setMinter(CAMPAIGN_ID, outsider.address, SP(3), true)).wait();
    const over = body(outsider.address, [
      [x, "1"],
      [y, "2.000000000000000001"],
    ]);
    expectRevert(await call("bulkPspMint", over), "pspVault", "MinterLimitExceeded", {
      campaignId: CAMPAIGN_ID,
      minter: outsider.address,
      limit: SP(3).toString(),
      issued: "0",
      amount: (SP(3) + 1n).toString(),
    });
    const dry = expectOk("bulkPspMint", await call("bulkPspMint", { ...over, dryRun: true }));
    assert.deepEqual(dry.minter, { limit: SP(3).toString(), issued: "0", active: true, headroom: SP(3).toString() });
    assert.equal(dry.blocked?.name, "MinterLimitExceeded");
    const at = body(outsider.address, [
      [x, "1"],
      [y, "2"],
    ]);
    await sendAll(expectOk("bulkPspMint", await call("bulkPspMint", at)), outsider);
    assert.deepEqual([await pspOf(e, x), await pspOf(e, y)], [SP(1), SP(2)]);
    const after = expectOk("bulkPspMint", await call("bulkPspMint", { ...at, dryRun: true }));
    assert.deepEqual(after.minter, { limit: SP(3).toString(), issued: SP(3).toString(), active: true, headroom: "0" });
    await (await vault().setMinter(CAMPAIGN_ID, outsider.address, 0, false)).wait();
    void brand;
  });

  it("everyOperation_fromAnAccountWithoutAuthority_is403MissingRole_dryRunOrNot", async () => {
    const { outsider, alice } = e.who;
    const [x] = recipients(1, "auth");
    for (const dryRun of [false, true]) {
      // As the single mint: no issuing authority at all is MinterNotAuthorized.
      expectRevert(
        await call("bulkPspMint", body(outsider.address, [[x, "1"]], { dryRun })),
        "pspVault",
        "MinterNotAuthorized",
        {
          campaignId: CAMPAIGN_ID,
          minter: outsider.address,
        },
      );
      for (const op of ["bulkPspExpire", "bulkPspSettle"] as const) {
        const extra = op === "bulkPspSettle" ? { settlementReceiver: e.who.carol.address, dryRun } : { dryRun };
        expectMissingRole(await call(op, body(alice.address, [[x, "0.5"]], extra)), {
          contract: "pspVault",
          role: "SETTLEMENT_ADMIN_ROLE",
          account: alice.address,
        });
      }
    }
  });

  it("anotherTenantsKey_withoutTheBuildScope_is403_noKeyIs401_andItsOwnBuildsAreBoundByTheChain", async () => {
    const { brand, outsider } = e.who;
    const [x] = recipients(1, "tenant");
    const readOnly = await bearerFor(e.api.service, "other tenant, read only", ["read"]);
    const other = await bearerFor(e.api.service, "other tenant");
    for (const op of Object.keys(PATHS) as Op[]) {
      const b = body(
        brand.address,
        [[x, "1"]],
        op === "bulkPspSettle" ? { settlementReceiver: e.who.carol.address } : {},
      );
      assert.deepEqual(expectError(await call(op, b, readOnly), 403, "FORBIDDEN"), {
        reason: "scope",
        needed: "build",
        granted: ["read"],
      });
      expectError(await call(op, b, {}), 401, "UNAUTHORIZED");
    }
    // Another tenant's key builds nothing the chain would let its own account run.
    expectRevert(
      await call("bulkPspMint", body(outsider.address, [[x, "1"]]), other),
      "pspVault",
      "MinterNotAuthorized",
      {
        campaignId: CAMPAIGN_ID,
        minter: outsider.address,
      },
    );
    expectMissingRole(await call("bulkPspExpire", body(outsider.address, [[x, "1"]]), other), {
      contract: "pspVault",
      role: "SETTLEMENT_ADMIN_ROLE",
      account: outsider.address,
    });
  });

  it("settle_dryRunListsShortHoldersAndAReceiverOffTheAllowlist_thenSettlesToTheReceiver", async () => {
    const { brand, carol, bob } = e.who;
    const [x, y, z] = recipients(3, "settle");
    await sendAll(
      expectOk(
        "bulkPspMint",
        await call(
          "bulkPspMint",
          body(brand.address, [
            [x, "4"],
            [y, "5"],
          ]),
        ),
      ),
    );
    const rows: [string, string][] = [
      [x, "4"],
      [y, "1.5"],
      [z, "1"],
    ];
    const offList = expectOk(
      "bulkPspSettle",
      await call("bulkPspSettle", body(brand.address, rows, { settlementReceiver: bob.address, dryRun: true })),
    );
    assert.deepEqual(offList.blocked, {
      contract: "pspVault",
      name: "SettlementReceiverNotWhitelisted",
      args: { campaignId: CAMPAIGN_ID, receiver: bob.address },
    });
    assert.deepEqual(offList.notAllowed, [
      { row: 3, address: z, reason: "insufficientBalance", balance: "0", amount: SP(1).toString() },
    ]);
    expectRevert(
      await call("bulkPspSettle", body(brand.address, rows.slice(0, 2), { settlementReceiver: bob.address })),
      "pspVault",
      "SettlementReceiverNotWhitelisted",
      { campaignId: CAMPAIGN_ID, receiver: bob.address },
    );
    const short = expectError(
      await call("bulkPspSettle", body(brand.address, rows, { settlementReceiver: carol.address })),
      422,
      "WOULD_REVERT",
    );
    assert.deepEqual(short.rows, offList.notAllowed, JSON.stringify(short));
    const spBefore = await e.c.points.balanceOf(carol.address);
    const ok = body(brand.address, rows.slice(0, 2), { settlementReceiver: carol.address });
    await sendAll(expectOk("bulkPspSettle", await call("bulkPspSettle", ok)));
    assert.equal(await e.c.points.balanceOf(carol.address), spBefore + SP(4) + SP(3) / 2n);
    assert.deepEqual([await pspOf(e, x), await pspOf(e, y)], [0n, SP(7) / 2n]);
  });

  it("expire_returnsEveryRowToTheBudget", async () => {
    const [, y] = recipients(3, "settle");
    const before = await e.c.pspVault.getCampaign(CAMPAIGN_ID);
    const plan = expectOk("bulkPspExpire", await call("bulkPspExpire", body(e.who.brand.address, [[y, "3.5"]])));
    assert.equal(plan.chunks[0].tx!.call.function, "expireBatch");
    await sendAll(plan);
    const c = await e.c.pspVault.getCampaign(CAMPAIGN_ID);
    assert.equal(await pspOf(e, y), 0n);
    assert.deepEqual([c.available, c.outstanding], [before.available + SP(7) / 2n, before.outstanding - SP(7) / 2n]);
  });
});
