import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, keccak256, toUtf8Bytes, ZeroAddress } from "ethers";
import { approveSpFirst, expectError, expectMissingRole, expectRevert, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// pSP routes, campaign side: create, fund, status changes, campaign admins, per-campaign
// allowlists and the campaign read (who may do what: docs/rules.md#campaigns).
describe("e2e: pSP campaign routes, signed and broadcast", () => {
  let e: E2E;
  const LABEL = "summer-2026";
  const SUMMER = keccak256(toUtf8Bytes(LABEL));
  const HEX = `0x${"AB".repeat(32)}`;

  before(async () => {
    e = await setupE2E();
    await e.giveSp(e.who.brand.address, SP(1_000));
    // alice may hold SP: closing a campaign sends her the rest.
    await (await e.c.points.connect(e.who.brand).addToTransferWhitelist(e.who.alice.address)).wait();
  });
  after(() => e?.stop());

  const post = (name: Parameters<E2E["call"]>[0], body: Record<string, unknown>) => e.call(name, { body });
  const ok = <N extends Parameters<E2E["ok"]>[0]>(name: N, body: Record<string, unknown>) => e.ok(name, { body });
  const campaign = (campaignId: string) => e.ok("pspCampaign", { params: { campaignId } });
  const toVault = async (sp: bigint) => (await e.c.points.connect(e.who.brand).transfer(e.record.pspVault, sp)).wait();

  describe("POST /studio/sdk/v1/tx/psp/create-campaign", () => {
    it("createCampaign_withALabel_offersTheSpApproval_thenCreatesTheCampaign_idHashedWithKeccak", async () => {
      const { brand, bob, carol } = e.who;
      const body = {
        campaignId: LABEL,
        spBudget: SP(100).toString(),
        settlementDestinations: [carol.address],
        transferWhitelist: [bob.address],
        metadata: "Summer",
        from: brand.address,
      };
      await approveSpFirst(e, await post("pspCreateCampaign", body), brand, e.record.pspVault, SP(100));

      const data = await ok("pspCreateCampaign", body);
      assert.deepEqual(data.campaignId, { value: SUMMER, source: "label", label: LABEL });
      assert.deepEqual(data.call.args, [SUMMER, SP(100).toString(), [carol.address], [bob.address], "Summer"]);
      await e.send(brand, data);
      assert.equal(await e.c.points.balanceOf(e.record.pspVault), SP(100));
      assert.equal(await e.c.points.balanceOf(brand.address), SP(900));
      const vault = e.c.pspVault;
      assert.deepEqual(
        [
          await vault.isCampaignAdmin(SUMMER, brand.address),
          await vault.isSettlementWhitelisted(SUMMER, carol.address),
          await vault.isTransferWhitelisted(SUMMER, bob.address),
        ],
        [true, true, true],
      );
      assert.deepEqual(await campaign(LABEL), {
        campaignId: { value: SUMMER, source: "label", label: LABEL },
        budget: SP(100).toString(),
        available: SP(100).toString(),
        outstanding: "0",
        status: "Active",
        creator: brand.address,
        metadata: "Summer",
        funder: brand.address,
        programFunded: "0",
        closeRecipient: brand.address,
        treasury: ZeroAddress,
      });
    });

    it("createCampaign_withAHexId_usesItAsIs_andAsksApprovalOnlyForThePartUnallocatedSpDoesNotCover", async () => {
      const { brand } = e.who;
      await toVault(SP(30));
      const body = { campaignId: HEX, spBudget: SP(50).toString(), from: brand.address };
      await approveSpFirst(e, await post("pspCreateCampaign", body), brand, e.record.pspVault, SP(20));
      const data = await ok("pspCreateCampaign", body);
      assert.deepEqual(data.campaignId, { value: HEX.toLowerCase(), source: "hex" });
      await e.send(brand, data);
      assert.equal(await e.c.pspVault.unallocated(), 0n);
      assert.equal(await e.c.points.balanceOf(brand.address), SP(900 - 30 - 20));
      const read = await campaign(HEX.toLowerCase());
      assert.deepEqual([read.campaignId.source, read.budget, read.metadata], ["hex", SP(50).toString(), ""]);
    });

    it("createCampaign_fullyCoveredByUnallocatedSp_needsNoApproval", async () => {
      const { brand } = e.who;
      await toVault(SP(10));
      const data = await ok("pspCreateCampaign", {
        campaignId: "covered",
        spBudget: SP(10).toString(),
        from: brand.address,
      });
      await e.send(brand, data);
      assert.equal((await campaign("covered")).available, SP(10).toString());
      assert.equal(await e.c.pspVault.unallocated(), 0n);
    });

    it("createCampaign_byAnAccountWithNeitherManagerNorCampaignAdminRole_is403MissingRole_notAnApprovalRequest", async () => {
      const { outsider } = e.who;
      const res = await post("pspCreateCampaign", {
        campaignId: "x",
        spBudget: SP(5).toString(),
        from: outsider.address,
      });
      const d = expectMissingRole(res, {
        contract: "pspVault",
        role: "CAMPAIGN_ADMIN_ROLE",
        account: outsider.address,
      });
      assert.deepEqual(d.anyOf, ["MANAGER_ROLE", "CAMPAIGN_ADMIN_ROLE"]);
    });

    it("createCampaign_withATakenId_is422CampaignAlreadyExists", async () => {
      const res = await post("pspCreateCampaign", { campaignId: LABEL, spBudget: "0", from: e.who.brand.address });
      expectRevert(res, "pspVault", "CampaignAlreadyExists", { campaignId: SUMMER });
    });
  });

  describe("POST /studio/sdk/v1/tx/psp/fund-campaign", () => {
    it("fundCampaign_usesUnallocatedSpFirst_andAsksApprovalForTheRest", async () => {
      const { brand } = e.who;
      await toVault(SP(5));
      const spBefore = await e.c.points.balanceOf(brand.address);
      const body = { campaignId: LABEL, amount: SP(15).toString(), from: brand.address };
      await approveSpFirst(e, await post("pspFundCampaign", body), brand, e.record.pspVault, SP(10));
      await e.send(brand, await ok("pspFundCampaign", body));
      const read = await campaign(LABEL);
      assert.deepEqual([read.budget, read.available], [SP(115).toString(), SP(115).toString()]);
      assert.equal(await e.c.points.balanceOf(brand.address), spBefore - SP(10));
    });

    it("fundCampaign_byAnAccountThatIsNotAnAdminOfTheCampaign_is422NotCampaignAdmin", async () => {
      const { outsider } = e.who;
      const res = await post("pspFundCampaign", { campaignId: LABEL, amount: "1", from: outsider.address });
      expectRevert(res, "pspVault", "NotCampaignAdmin", { campaignId: SUMMER, caller: outsider.address });
    });
  });

  describe("set-campaign-admin, pause/resume/close-campaign", () => {
    const CAROLS = keccak256(toUtf8Bytes("carols"));
    before(async () => {
      // carol: CAMPAIGN_ADMIN_ROLE only, so she is a creator without MANAGER_ROLE.
      const { brand, carol } = e.who;
      const grant = await ok("pspGrantRole", {
        roleType: "CAMPAIGN_ADMIN",
        account: carol.address,
        from: brand.address,
      });
      await e.send(brand, grant);
      assert.equal(await e.c.pspVault.hasRole(id("CAMPAIGN_ADMIN_ROLE"), carol.address), true);
      await e.send(carol, await ok("pspCreateCampaign", { campaignId: "carols", spBudget: "0", from: carol.address }));
    });

    it("setCampaignAdmin_byTheCreatorWithoutManagerRole_makesAnotherAdmin", async () => {
      const { carol, alice } = e.who;
      const data = await ok("pspSetCampaignAdmin", {
        campaignId: "carols",
        account: alice.address,
        allowed: true,
        from: carol.address,
      });
      await e.send(carol, data);
      assert.equal(await e.c.pspVault.isCampaignAdmin(CAROLS, alice.address), true);
    });

    it("setCampaignAdmin_byAnAdminWhoIsNotTheCreator_is422NotCampaignCreator", async () => {
      const { alice, bob } = e.who;
      const body = { campaignId: "carols", account: bob.address, allowed: true, from: alice.address };
      expectRevert(await post("pspSetCampaignAdmin", body), "pspVault", "NotCampaignCreator", {
        campaignId: CAROLS,
        caller: alice.address,
      });
    });

    it("pauseCampaign_andResumeCampaign_byACampaignAdmin_moveTheStatus_andPausedRefusesIssuance", async () => {
      const { alice } = e.who;
      await e.send(alice, await ok("pspPauseCampaign", { campaignId: "carols", from: alice.address }));
      assert.equal((await campaign("carols")).status, "Paused");
      const issue = { campaignId: "carols", to: alice.address, amount: "1", from: alice.address };
      expectRevert(await post("pspMint", issue), "pspVault", "CampaignNotActive", { campaignId: CAROLS, status: "2" });
      await e.send(alice, await ok("pspResumeCampaign", { campaignId: "carols", from: alice.address }));
      assert.equal((await campaign("carols")).status, "Active");
    });

    it("resumeCampaign_ofAnActiveCampaign_is422InvalidCampaignStatus", async () => {
      const res = await post("pspResumeCampaign", { campaignId: "carols", from: e.who.alice.address });
      expectRevert(res, "pspVault", "InvalidCampaignStatus", { campaignId: CAROLS, status: "1" });
    });

    it("pauseCampaign_byAnAccountThatIsNotAnAdminOfTheCampaign_is422NotCampaignAdmin", async () => {
      const res = await post("pspPauseCampaign", { campaignId: "carols", from: e.who.bob.address });
      expectRevert(res, "pspVault", "NotCampaignAdmin", { campaignId: CAROLS, caller: e.who.bob.address });
    });

    it("setCampaignAdmin_allowedFalse_removesTheAdmin", async () => {
      const { carol, alice } = e.who;
      const body = { campaignId: "carols", account: alice.address, allowed: false, from: carol.address };
      await e.send(carol, await ok("pspSetCampaignAdmin", body));
      assert.equal(await e.c.pspVault.isCampaignAdmin(CAROLS, alice.address), false);
    });

    it("closeCampaign_withATo_otherThanTheFunder_is422InvalidReturnTo", async () => {
      const { brand, alice } = e.who;
      const res = await post("pspCloseCampaign", { campaignId: HEX, to: alice.address, from: brand.address });
      expectRevert(res, "pspVault", "InvalidReturnTo", {
        campaignId: HEX.toLowerCase(),
        returnTo: alice.address,
        expected: brand.address,
      });
    });

    it("closeCampaign_withoutTo_paysTheFundersOwnShareToIt_andTheProgramMoneyStaysUnallocated", async () => {
      const { brand } = e.who;
      // HEX: 30 SP came from the unallocated pool (program money), 20 from the brand's wallet.
      const before = await e.c.points.balanceOf(brand.address);
      const unallocated = await e.c.pspVault.unallocated();
      const data = await ok("pspCloseCampaign", { campaignId: HEX, from: brand.address });
      assert.deepEqual(data.call.args, [HEX.toLowerCase(), brand.address]);
      await e.send(brand, data);
      assert.equal(await e.c.points.balanceOf(brand.address), before + SP(20));
      assert.equal(await e.c.pspVault.unallocated(), unallocated + SP(30));
      const read = await campaign(HEX);
      assert.deepEqual([read.status, read.available, read.budget], ["Closed", "0", SP(50).toString()]);
    });

    it("fundCampaign_ofAClosedCampaign_is422InvalidCampaignStatus", async () => {
      const res = await post("pspFundCampaign", { campaignId: HEX, amount: "1", from: e.who.brand.address });
      expectRevert(res, "pspVault", "InvalidCampaignStatus", { campaignId: HEX.toLowerCase(), status: "3" });
    });
  });

  describe("update-settlement-whitelist and update-transfer-whitelist", () => {
    const lists = [
      ["pspUpdateSettlementWhitelist", "isSettlementWhitelisted"],
      ["pspUpdateTransferWhitelist", "isTransferWhitelisted"],
    ] as const;
    for (const [route, view] of lists) {
      it(`${route}_byACampaignAdmin_addsThenRemovesTheAccount`, async () => {
        const { brand, outsider } = e.who;
        for (const allowed of [true, false]) {
          const body = { campaignId: LABEL, account: outsider.address, allowed, from: brand.address };
          const data = await ok(route, body);
          assert.deepEqual(data.call.args, [SUMMER, outsider.address, allowed]);
          await e.send(brand, data);
          assert.equal(await e.c.pspVault[view](SUMMER, outsider.address), allowed);
        }
      });

      it(`${route}_byAnAccountThatIsNotAnAdminOfTheCampaign_is422NotCampaignAdmin`, async () => {
        const { outsider } = e.who;
        const body = { campaignId: LABEL, account: outsider.address, allowed: true, from: outsider.address };
        expectRevert(await post(route, body), "pspVault", "NotCampaignAdmin", {
          campaignId: SUMMER,
          caller: outsider.address,
        });
      });
    }
  });

  describe("funders, revoke-creator and set-treasury (docs/rules.md#campaigns)", () => {
    const CAROLS = keccak256(toUtf8Bytes("carols"));

    it("fundCampaign_byACreatorWithoutManagerRole_asksApprovalForTheWholeAmount_leavingUnallocatedSpAlone", async () => {
      const { carol } = e.who;
      await toVault(SP(7));
      await e.giveSp(carol.address, SP(20));
      const unallocated = await e.c.pspVault.unallocated();
      const body = { campaignId: "carols", amount: SP(10).toString(), from: carol.address };
      await approveSpFirst(e, await post("pspFundCampaign", body), carol, e.record.pspVault, SP(10));
      await e.send(carol, await ok("pspFundCampaign", body));
      assert.equal(await e.c.points.balanceOf(carol.address), SP(10));
      assert.equal(await e.c.pspVault.unallocated(), unallocated);
      assert.deepEqual([...(await e.c.pspVault.fundingOf(CAROLS))], [carol.address, 0n]);
    });

    it("fundCampaign_byACampaignAdminWhoIsNotTheFunder_is422NotCampaignFunder", async () => {
      const { carol, alice } = e.who;
      const add = { campaignId: "carols", account: alice.address, allowed: true, from: carol.address };
      await e.send(carol, await ok("pspSetCampaignAdmin", add));
      const res = await post("pspFundCampaign", { campaignId: "carols", amount: "1", from: alice.address });
      expectRevert(res, "pspVault", "NotCampaignFunder", { campaignId: CAROLS, caller: alice.address });
    });

    it("revokeCreator_byACreatorWithoutManagerRole_is403MissingRole", async () => {
      const { carol } = e.who;
      expectMissingRole(await post("pspRevokeCreator", { campaignId: "carols", from: carol.address }), {
        contract: "pspVault",
        role: "MANAGER_ROLE",
        account: carol.address,
      });
    });

    it("revokeCreator_byTheManager_endsTheCreatorsRights_andItsRefundStays", async () => {
      const { brand, carol } = e.who;
      await e.send(brand, await ok("pspRevokeCreator", { campaignId: "carols", from: brand.address }));
      assert.equal((await campaign("carols")).creator, "0x0000000000000000000000000000000000000000");
      assert.equal(await e.c.pspVault.isCampaignAdmin(CAROLS, carol.address), false);
      const res = await post("pspFundCampaign", { campaignId: "carols", amount: "1", from: carol.address });
      expectRevert(res, "pspVault", "NotCampaignAdmin", { campaignId: CAROLS, caller: carol.address });
      // Whoever closes it, carol's 10 SP go back to carol.
      await e.send(brand, await ok("pspCloseCampaign", { campaignId: "carols", from: brand.address }));
      assert.equal(await e.c.points.balanceOf(carol.address), SP(20));
    });

    it("setTreasury_thenCloseCampaign_sendsTheProgramMoneyToTheTreasury_andTheRestToTheFunder", async () => {
      const { brand, alice } = e.who;
      const set = await ok("pspSetTreasury", { treasury: alice.address, from: brand.address });
      assert.deepEqual(set.call.args, [alice.address]);
      await e.send(brand, set);
      assert.equal(await e.c.pspVault.treasury(), alice.address);
      // LABEL: 115 SP, 5 of them drawn from the unallocated pool by the brand.
      const [aliceBefore, brandBefore] = [
        await e.c.points.balanceOf(alice.address),
        await e.c.points.balanceOf(brand.address),
      ];
      // The read route shows the operator where the close will pay, before it is sent.
      const before = await campaign(LABEL);
      assert.deepEqual(
        [before.funder, before.programFunded, before.closeRecipient, before.treasury],
        [brand.address, SP(5).toString(), brand.address, alice.address],
      );
      await e.send(brand, await ok("pspCloseCampaign", { campaignId: LABEL, from: brand.address }));
      assert.equal(await e.c.points.balanceOf(alice.address), aliceBefore + SP(5));
      assert.equal(await e.c.points.balanceOf(brand.address), brandBefore + SP(110));
    });
  });

  describe("GET /studio/sdk/v1/psp/campaign/:campaignId", () => {
    it("campaign_ofAnUnknownId_is404CampaignNotFound", async () => {
      const d = expectError(await e.call("pspCampaign", { params: { campaignId: "nope" } }), 404, "NOT_FOUND");
      assert.equal(d.name, "CampaignNotFound");
    });

    it("campaign_withoutAnApiKey_is401", async () => {
      expectError(await e.call("pspCampaign", { params: { campaignId: LABEL }, auth: false }), 401, "UNAUTHORIZED");
    });
  });
});
