import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, keccak256, toUtf8Bytes } from "ethers";
import { expectError, expectMissingRole, expectOk, expectRevert, setupE2E, SP, type E2E } from "./helpers/e2e.js";

// pSP routes, ledger side: issue pSP under every authority (docs/rules.md#issuance), delegated
// minters and their limits, settle and expire (docs/rules.md#settlement-clawback-admin-transfer),
// admin transfer, and the PSPVault role routes.
describe("e2e: pSP ledger, minter and role routes, signed and broadcast", () => {
  let e: E2E;
  const MAIN = keccak256(toUtf8Bytes("main"));
  const OTHER = keccak256(toUtf8Bytes("other"));

  before(async () => {
    e = await setupE2E();
    const { brand, bob, carol } = e.who;
    await e.giveSp(brand.address, SP(200));
    await e.giveSp(carol.address, SP(1)); // carol may receive settled SP
    const vault = e.c.pspVault.connect(brand);
    await (await e.c.points.connect(brand).approve(e.record.pspVault, SP(110))).wait();
    await (await vault.createCampaign(MAIN, SP(100), [carol.address], [bob.address], "main")).wait();
    await (await vault.createCampaign(OTHER, SP(10), [], [], "other")).wait();
  });
  after(() => e?.stop());

  /** 403 MISSING_ROLE: `who` lacks `role` on the PSPVault. */
  const vaultRefuses = (who: { address: string }, res: Parameters<typeof expectMissingRole>[0], role: string) =>
    expectMissingRole(res, { contract: "pspVault", role, account: who.address });

  const ok = <N extends Parameters<E2E["ok"]>[0]>(name: N, body: Record<string, unknown>) => e.ok(name, { body });
  const post = (name: Parameters<E2E["call"]>[0], body: Record<string, unknown>) => e.call(name, { body });
  const mint = (from: string, amount: bigint, campaignId = "main", to = e.who.alice.address) =>
    post("pspMint", { campaignId, to, amount: amount.toString(), metadata: "m", from });
  const psp = (holder: string, campaign = MAIN) => e.c.pspVault.balanceOf(campaign, holder);
  const config = (minter: string) => e.ok("pspMinterConfig", { params: { campaignId: "main", minter } });

  describe("who may issue pSP; a delegated minter holds no role", () => {
    it("mint_byAManager_issuesPsp_andTheBalanceReadShowsIt", async () => {
      const { brand, alice } = e.who;
      const data = expectOk("pspMint", await mint(brand.address, SP(10)));
      assert.deepEqual(data.call.args, [MAIN, alice.address, SP(10).toString(), "m"]);
      await e.send(brand, data);
      assert.equal(await psp(alice.address), SP(10));
      const c = await e.c.pspVault.getCampaign(MAIN);
      assert.deepEqual([c.available, c.outstanding], [SP(90), SP(10)]);
      const read = await e.ok("pspBalance", { params: { campaignId: "main", holder: alice.address.toLowerCase() } });
      assert.deepEqual(read, {
        campaignId: { value: MAIN, source: "label", label: "main" },
        holder: alice.address,
        balance: SP(10).toString(),
      });
    });

    it("mint_byAnIssuingAdmin_grantedThroughGrantRoleIssuingAdmin_intoAnyActiveCampaign", async () => {
      const { brand, carol, alice } = e.who;
      const grant = await ok("pspGrantRole", {
        roleType: "ISSUING_ADMIN",
        account: carol.address,
        from: brand.address,
      });
      assert.deepEqual(grant.call, {
        contract: "pspVault",
        function: "grantRole",
        args: [id("ISSUING_ADMIN_ROLE"), carol.address],
      });
      await e.send(brand, grant);
      assert.equal(await e.c.pspVault.hasRole(id("ISSUING_ADMIN_ROLE"), carol.address), true);
      await e.send(carol, expectOk("pspMint", await mint(carol.address, SP(2), "other")));
      assert.equal(await psp(alice.address, OTHER), SP(2));
    });

    it("mint_byAnAdminOfThatCampaign", async () => {
      const { brand, bob, alice } = e.who;
      const body = { campaignId: "main", account: bob.address, allowed: true, from: brand.address };
      await e.send(brand, await ok("pspSetCampaignAdmin", body));
      await e.send(bob, expectOk("pspMint", await mint(bob.address, SP(1))));
      assert.equal(await psp(alice.address), SP(11));
    });

    it("mint_byADelegatedMinter_withinItsLimit_thenMinterLimitExceeded", async () => {
      const { brand, outsider, alice } = e.who;
      const body = { campaignId: "main", minter: outsider.address, limit: SP(8).toString(), active: true };
      const data = await ok("pspConfigureMinter", { ...body, from: brand.address });
      assert.deepEqual(data.call.args, [MAIN, outsider.address, SP(8).toString(), true]);
      await e.send(brand, data);
      assert.deepEqual(await config(outsider.address), {
        campaignId: { value: MAIN, source: "label", label: "main" },
        minter: outsider.address,
        limit: SP(8).toString(),
        issued: "0",
        active: true,
      });
      // A delegated minter holds no role and is on no Factory allowlist (rule 4).
      await e.send(outsider, expectOk("pspMint", await mint(outsider.address, SP(5))));
      assert.equal(await psp(alice.address), SP(16));
      assert.equal((await config(outsider.address)).issued, SP(5).toString());
      expectRevert(await mint(outsider.address, SP(4)), "pspVault", "MinterLimitExceeded", {
        campaignId: MAIN,
        minter: outsider.address,
        limit: SP(8).toString(),
        issued: SP(5).toString(),
        amount: SP(4).toString(),
      });
    });

    it("mint_byADelegatedMinterIntoAnotherCampaign_is422MinterNotAuthorized", async () => {
      const { outsider } = e.who;
      expectRevert(await mint(outsider.address, 1n, "other"), "pspVault", "MinterNotAuthorized", {
        campaignId: OTHER,
        minter: outsider.address,
      });
    });

    it("createCampaign_byADelegatedMinter_is403MissingRole", async () => {
      const { outsider } = e.who;
      const res = await post("pspCreateCampaign", { campaignId: "mine", spBudget: "0", from: outsider.address });
      vaultRefuses(outsider, res, "CAMPAIGN_ADMIN_ROLE");
    });

    it("configureMinter_inactive_keepsTheConfiguration_andTheMinterCannotMint", async () => {
      const { brand, outsider } = e.who;
      const body = { campaignId: "main", minter: outsider.address, limit: SP(8).toString(), active: false };
      await e.send(brand, await ok("pspConfigureMinter", { ...body, from: brand.address }));
      const read = await config(outsider.address);
      assert.deepEqual([read.limit, read.issued, read.active], [SP(8).toString(), SP(5).toString(), false]);
      expectRevert(await mint(outsider.address, 1n), "pspVault", "MinterNotAuthorized", {
        campaignId: MAIN,
        minter: outsider.address,
      });
    });

    it("configureMinter_withAHigherLimitAndActive_resumesAuthority", async () => {
      const { brand, outsider } = e.who;
      const body = { campaignId: "main", minter: outsider.address, limit: SP(20).toString(), active: true };
      await e.send(brand, await ok("pspConfigureMinter", { ...body, from: brand.address }));
      await e.send(outsider, expectOk("pspMint", await mint(outsider.address, SP(4))));
      assert.equal((await config(outsider.address)).issued, SP(9).toString());
    });

    it("configureMinter_zeroAndInactive_revokes_keepingTheIssuedCount", async () => {
      const { brand, outsider } = e.who;
      const body = { campaignId: "main", minter: outsider.address, limit: "0", active: false };
      await e.send(brand, await ok("pspConfigureMinter", { ...body, from: brand.address }));
      const read = await config(outsider.address);
      assert.deepEqual([read.limit, read.issued, read.active], ["0", SP(9).toString(), false]);
    });

    it("configureMinter_byAnAccountThatIsNotAnAdminOfTheCampaign_is422NotCampaignAdmin", async () => {
      const { outsider } = e.who;
      const body = { campaignId: "main", minter: outsider.address, limit: "1", active: true, from: outsider.address };
      expectRevert(await post("pspConfigureMinter", body), "pspVault", "NotCampaignAdmin", {
        campaignId: MAIN,
        caller: outsider.address,
      });
    });

    it("mint_byAnAccountWithNoMinterConfiguration_is422MinterNotAuthorized", async () => {
      const { executor } = e.who;
      expectRevert(await mint(executor.address, 1n), "pspVault", "MinterNotAuthorized", {
        campaignId: MAIN,
        minter: executor.address,
      });
    });

    it("mint_aboveTheAvailableBudget_is422InsufficientBudget", async () => {
      const available = (await e.c.pspVault.getCampaign(MAIN)).available;
      expectRevert(await mint(e.who.brand.address, available + 1n), "pspVault", "InsufficientBudget", {
        campaignId: MAIN,
        available: available.toString(),
        amount: (available + 1n).toString(),
      });
    });
  });

  describe("settle", () => {
    const settle = (from: string, receiver: string, amount: bigint) =>
      post("pspSettle", {
        holder: e.who.alice.address,
        receiver,
        amount: amount.toString(),
        campaignId: "main",
        metadata: "s",
        from,
      });

    it("settle_toAWhitelistedReceiver_burnsThePsp_andSendsAsMuchSp", async () => {
      const { brand, alice, carol } = e.who;
      const [pspBefore, spBefore] = [await psp(alice.address), await e.c.points.balanceOf(carol.address)];
      await e.send(brand, expectOk("pspSettle", await settle(brand.address, carol.address, SP(3))));
      assert.equal(await psp(alice.address), pspBefore - SP(3));
      assert.equal(await e.c.points.balanceOf(carol.address), spBefore + SP(3));
      assert.equal((await e.c.pspVault.getCampaign(MAIN)).outstanding, SP(20) - SP(3));
    });

    it("settle_toAReceiverNotOnTheSettlementWhitelist_is422SettlementReceiverNotWhitelisted", async () => {
      const { brand, bob } = e.who;
      expectRevert(await settle(brand.address, bob.address, 1n), "pspVault", "SettlementReceiverNotWhitelisted", {
        campaignId: MAIN,
        receiver: bob.address,
      });
    });

    it("settle_aboveTheHoldersBalance_is422InsufficientPSPBalance", async () => {
      const { brand, alice, carol } = e.who;
      const balance = await psp(alice.address);
      expectRevert(await settle(brand.address, carol.address, balance + 1n), "pspVault", "InsufficientPSPBalance", {
        campaignId: MAIN,
        holder: alice.address,
        balance: balance.toString(),
        amount: (balance + 1n).toString(),
      });
    });

    it("settle_byAnAccountWithNeitherManagerNorSettlementAdminRole_is403MissingRole", async () => {
      const { outsider, carol } = e.who;
      vaultRefuses(outsider, await settle(outsider.address, carol.address, 1n), "SETTLEMENT_ADMIN_ROLE");
    });
  });

  describe("expire and admin transfer", () => {
    const expire = (from: string, amount: bigint) =>
      post("pspExpire", { holder: e.who.alice.address, amount: amount.toString(), campaignId: "main", from });
    const transfer = (from: string, to: string, amount: bigint) =>
      post("pspTransfer", { campaignId: "main", holder: e.who.alice.address, to, amount: amount.toString(), from });

    it("expire_returnsTheSpToTheAvailableBudget_whichIssuesAgainWithoutNewCollateral", async () => {
      const { brand, alice, bob } = e.who;
      const c0 = await e.c.pspVault.getCampaign(MAIN);
      const held = await e.c.points.balanceOf(e.record.pspVault);
      await e.send(brand, expectOk("pspExpire", await expire(brand.address, SP(2))));
      const c1 = await e.c.pspVault.getCampaign(MAIN);
      assert.deepEqual([c1.available, c1.outstanding], [c0.available + SP(2), c0.outstanding - SP(2)]);
      assert.equal(await psp(alice.address), SP(20) - SP(3) - SP(2));
      await e.send(brand, expectOk("pspMint", await mint(brand.address, c1.available, "main", bob.address)));
      assert.equal(await e.c.points.balanceOf(e.record.pspVault), held);
    });

    it("expire_byAnAccountWithNeitherManagerNorSettlementAdminRole_is403MissingRole", async () => {
      const { outsider } = e.who;
      vaultRefuses(outsider, await expire(outsider.address, 1n), "SETTLEMENT_ADMIN_ROLE");
    });

    it("transfer_toAnAccountOnTheCampaignsTransferWhitelist_movesThePsp", async () => {
      const { brand, alice, bob } = e.who;
      const [a, b] = [await psp(alice.address), await psp(bob.address)];
      const data = expectOk("pspTransfer", await transfer(brand.address, bob.address, SP(1)));
      assert.deepEqual(data.call.args, [MAIN, alice.address, bob.address, SP(1).toString()]);
      await e.send(brand, data);
      assert.deepEqual([await psp(alice.address), await psp(bob.address)], [a - SP(1), b + SP(1)]);
    });

    it("transfer_toAnAccountNotOnTheTransferWhitelist_is422TransferReceiverNotWhitelisted", async () => {
      const { brand, carol } = e.who;
      expectRevert(await transfer(brand.address, carol.address, 1n), "pspVault", "TransferReceiverNotWhitelisted", {
        campaignId: MAIN,
        to: carol.address,
      });
    });

    it("transfer_byAnAccountWithNeitherManagerNorTransferAdminRole_is403MissingRole", async () => {
      const { outsider, bob } = e.who;
      vaultRefuses(outsider, await transfer(outsider.address, bob.address, 1n), "TRANSFER_ADMIN_ROLE");
    });
  });

  describe("grant-role and revoke-role on the PSPVault", () => {
    it("revokeRole_IssuingAdmin_removesTheRole_andTheFormerAdminCannotMint", async () => {
      const { brand, carol } = e.who;
      const body = { roleType: "ISSUING_ADMIN_ROLE", account: carol.address, from: brand.address };
      await e.send(brand, await ok("pspRevokeRole", body));
      assert.equal(await e.c.pspVault.hasRole(id("ISSUING_ADMIN_ROLE"), carol.address), false);
      expectRevert(await mint(carol.address, 1n, "other"), "pspVault", "MinterNotAuthorized", {
        campaignId: OTHER,
        minter: carol.address,
      });
    });

    it("grantRole_andRevokeRole_byAnAccountWithoutDefaultAdminRole_are403MissingRole", async () => {
      const { outsider, carol } = e.who;
      for (const name of ["pspGrantRole", "pspRevokeRole"] as const) {
        const res = await post(name, { roleType: "issuing_admin", account: carol.address, from: outsider.address });
        vaultRefuses(outsider, res, "DEFAULT_ADMIN_ROLE");
      }
    });

    it("grantRole_ofARoleThePspVaultDoesNotDefine_is400", async () => {
      const res = await post("pspGrantRole", {
        roleType: "MINTER",
        account: e.who.carol.address,
        from: e.who.brand.address,
      });
      expectError(res, 400, "INVALID_INPUT");
    });

    it("pspRoutes_withoutAnApiKey_are401", async () => {
      const body = { campaignId: "main", to: e.who.alice.address, amount: "1", from: e.who.brand.address };
      expectError(await e.call("pspMint", { body, auth: false }), 401, "UNAUTHORIZED");
      const params = { campaignId: "main", minter: e.who.outsider.address };
      expectError(await e.call("pspMinterConfig", { params, auth: false }), 401, "UNAUTHORIZED");
    });
  });
});
