import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Contract, parseUnits } from "ethers";
import { devSafe } from "@points/testkit";
import { deskTypedData as deskSchemaTypedData, routes, type RouteName } from "@points/schema";
import {
  createClient,
  deskTypedData,
  PointsApiError,
  type DeskView,
  type PointsClient,
  type PreparedTx,
} from "../src/index.js";
import { seedBrand, sendWithPrerequisite, startLive, type Live } from "./helpers/live.js";
import { routeRecorder } from "./helpers/routeRecorder.js";
import { walkSafeProposals } from "./helpers/safeProposals.js";

const SP = (n: string) => parseUnits(n, 18).toString();

describe("namespaces: every method reaches its route of the schema table (live API)", () => {
  let live: Live;
  let client: PointsClient;
  const { fetch, log, reached, expectRoute } = routeRecorder();
  let requestId: string;
  let safe: Awaited<ReturnType<typeof devSafe>>;

  before(async () => {
    live = await startLive();
    await seedBrand(live, parseUnits("200", 6), parseUnits("100", 6));
    // Dev account 0 deploys the Safe; it is also the API's executor, so this happens before the
    // onboarding test below queues a deploy that the executor sends in the background.
    safe = await devSafe(live.node.provider);
    // The onboarding test below deploys a second program: every call names the seeded one.
    client = createClient({ baseUrl: live.api.url, apiKey: live.apiKey, fetch, program: "acme" });
    const { brand, alice, bob } = live.actors;
    const from = { from: brand.address };
    await (await client.points.addToTransferWhitelist(alice.address, from)).send(brand);
    const campaign = { settlementDestinations: [alice.address], transferWhitelist: [alice.address, bob.address] };
    await sendWithPrerequisite(
      () => client.vault.createCampaign({ campaignId: "c1", spBudget: SP("50"), ...campaign, metadata: "" }, from),
      brand,
    );
    await (await client.vault.mint("c1", alice.address, SP("10"), "", from)).send(brand);
    await (await client.build.redeem({ asset: live.usdc, amount: SP("1") }, from)).send(brand);
    // Request ids count from 1, so the count is the id of the latest request.
    requestId = (await client.read.factoryState()).redeemRequestCount;
  });
  after(() => live?.stop());

  it("allowlistMethods_reachSectionFRoutes_andBuildForTheSigner", async () => {
    const { brand, alice, carol } = live.actors;
    const from = { from: brand.address };
    const built = (await expectRoute("whitelistMintAdd", () =>
      client.factory.addToMintWhitelist(carol.address, from),
    )) as PreparedTx;
    assert.equal(built.to, live.program.factory);
    assert.deepEqual(built.call, { contract: "factory", function: "addToMintWhitelist", args: [carol.address] });
    await expectRoute("whitelistMintRemove", () => client.factory.removeFromMintWhitelist(brand.address, from));
    await expectRoute("whitelistRedeemAdd", () => client.factory.addToRedeemWhitelist(carol.address, from));
    await expectRoute("whitelistRedeemRemove", () => client.factory.removeFromRedeemWhitelist(brand.address, from));
    assert.deepEqual(await expectRoute("whitelistStatus", () => client.factory.whitelistStatus(brand.address)), {
      address: brand.address,
      mint: true,
      redeem: true,
      transfer: true,
    });
    await expectRoute("whitelistTransferAdd", () => client.points.addToTransferWhitelist(carol.address, from));
    await expectRoute("whitelistTransferRemove", () => client.points.removeFromTransferWhitelist(alice.address, from));
    assert.equal(await expectRoute("whitelistStatus", () => client.points.isTransferWhitelisted(alice.address)), true);
    assert.equal(await expectRoute("whitelistStatus", () => client.points.isTransferWhitelisted(carol.address)), false);
  });

  it("vaultMethods_reachSectionGRoutes_withTheContractArgumentsInOrder", async () => {
    const { brand, alice, bob, carol } = live.actors;
    const from = { from: brand.address };
    const v = client.vault;
    const c2 = {
      campaignId: "c2",
      spBudget: SP("1"),
      settlementDestinations: [],
      transferWhitelist: [],
      metadata: "m",
    };
    await expectRoute("pspCreateCampaign", () => v.createCampaign(c2, from));
    await expectRoute("pspFundCampaign", () => v.fundCampaign("c1", SP("1"), from));
    const mint = (await expectRoute("pspMint", () => v.mint("c1", alice.address, SP("1"), "x", from))) as PreparedTx;
    assert.equal(mint.call.function, "mint");
    assert.deepEqual(mint.call.args.slice(1), [alice.address, SP("1"), "x"]);
    await expectRoute("pspSettle", () => v.settle(alice.address, alice.address, SP("1"), "c1", "", from));
    await expectRoute("pspExpire", () => v.expire(alice.address, SP("1"), "c1", "", from));
    const rows = [{ to: alice.address, amount: SP("1") }];
    const mintBatch = (await expectRoute("pspMintBatch", () => v.mintBatch("c1", rows, "x", from))) as PreparedTx;
    assert.deepEqual(mintBatch.call.args.slice(1), [[alice.address], [SP("1")], "x"]);
    const debit = { holder: alice.address, amount: SP("1") };
    await expectRoute("pspSettleBatch", () => v.settleBatch("c1", [{ ...debit, receiver: alice.address }], "", from));
    await expectRoute("pspExpireBatch", () => v.expireBatch("c1", [debit], "", from));
    await expectRoute("pspTransfer", () => v.transfer("c1", alice.address, bob.address, SP("1"), from));
    await expectRoute("pspUpdateSettlementWhitelist", () => v.updateSettlementWhitelist("c1", bob.address, true, from));
    await expectRoute("pspUpdateTransferWhitelist", () => v.updateTransferWhitelist("c1", carol.address, true, from));
    await expectRoute("pspConfigureMinter", () => v.setMinter("c1", carol.address, SP("5"), true, from));
    assert.deepEqual(await expectRoute("pspMinterConfig", () => v.getMinterConfig("c1", carol.address)), {
      campaignId: (await v.getCampaign("c1")).campaignId,
      minter: carol.address,
      limit: "0",
      issued: "0",
      active: false,
    });
    await expectRoute("pspSetCampaignAdmin", () => v.setCampaignAdmin("c1", carol.address, true, from));
    await expectRoute("pspGrantRole", () => v.grantRole("ISSUING_ADMIN", carol.address, from));
    await expectRoute("pspRevokeRole", () => v.revokeRole("ISSUING_ADMIN_ROLE", brand.address, from));
    await expectRoute("pspSetTreasury", () => v.setTreasury(alice.address, from));
    await expectRoute("pspRevokeCreator", () => v.revokeCreator("c1", from));
    await expectRoute("pspCloseCampaign", () => v.closeCampaign("c1", brand.address, from));
    const campaign = (await expectRoute("pspCampaign", () => v.getCampaign("c1"))) as { budget: string };
    assert.equal(campaign.budget, SP("50"));
    assert.deepEqual(
      ((await expectRoute("pspBalance", () => v.balanceOf("c1", alice.address))) as any).balance,
      SP("10"),
    );
    const pause = (await expectRoute("pspPauseCampaign", () => v.pauseCampaign("c1", from))) as PreparedTx;
    await pause.send(brand);
    await expectRoute("pspResumeCampaign", () => v.resumeCampaign("c1", from));
  });

  it("buildAndRedeemMethods_reachSectionARoutes", async () => {
    const { brand, alice, executor } = live.actors;
    const from = { from: brand.address };
    const scope = { chainId: "31337", factoryAddr: live.program.factory, assetAddr: live.usdc };
    await expectRoute("buildMint", () => client.build.mint({ asset: live.usdc, amount: "1000000" }, from));
    await expectRoute("buildRedeem", () => client.build.redeem({ asset: live.usdc, amount: SP("1") }, from));
    await expectRoute("buildFinalizeRedeem", () => client.build.finalizeRedeem(requestId, { from: executor.address }));
    await expectRoute("buildTransfer", () => client.build.transfer({ to: alice.address, amount: SP("1") }, from));
    const create = { to: brand.address, amount: SP("1"), expectedBasketMode: false };
    await expectRoute("chainRedeemCreate", () => client.redeem.create(scope, create, from));
    await expectRoute("chainRedeemCancel", () => client.redeem.cancel(scope, requestId, from));
    await expectRoute("chainRedeemFinalize", () =>
      client.redeem.finalize(scope, requestId, { from: executor.address }),
    );
    const status = (await expectRoute("chainRedeemStatus", () => client.redeem.status(scope, requestId))) as any;
    assert.equal(status.status, "Pending");
    assert.equal(status.amount, SP("1"));
  });

  it("readMethods_reachSectionBRoutes", async () => {
    const { brand } = live.actors;
    const r = client.read;
    assert.equal(((await expectRoute("readBalance", () => r.balance(brand.address))) as any).address, brand.address);
    assert.equal(
      ((await expectRoute("readFactoryState", () => r.factoryState())) as any).factory,
      live.program.factory,
    );
    assert.deepEqual(
      ((await expectRoute("readFactoryAssets", () => r.assets())) as any[]).map((a) => a.asset),
      [live.usdc],
    );
    assert.equal(((await expectRoute("readFactoryVault", () => r.vault(live.usdc))) as any).asset, live.usdc);
    assert.equal(((await expectRoute("readRedeemRequest", () => r.redeemRequest(requestId))) as any).status, "Pending");
    assert.deepEqual(
      ((await expectRoute("listFactories", () => r.factories())) as any[]).map((p) => p.id),
      ["acme"],
    );
    assert.equal(((await expectRoute("getFactory", () => r.factory("acme"))) as any).factory, live.program.factory);
    // The live chain has no explorer configured: verification is skipped, and said so.
    const verification = (await expectRoute("getFactoryVerification", () => r.verification("acme"))) as any;
    assert.equal(verification.status, "skipped");
    assert.equal(verification.message, "no explorer is configured for chain 31337");
    assert.equal(
      ((await expectRoute("listChainContracts", () => r.chainContracts("31337"))) as any).programs.length,
      1,
    );
  });

  it("roleAndFreezeMethods_reachSectionCAndDRoutes", async () => {
    const { brand, carol } = live.actors;
    const from = { from: brand.address };
    const grant = { contract: "factory", role: "MANAGER", account: carol.address };
    await expectRoute("grantRole", () => client.roles.grant(grant, from));
    await expectRoute("revokeRole", () => client.roles.revoke(grant, from));
    const begun = (await expectRoute("adminHandoverBegin", () =>
      client.roles.handover.begin("points", carol.address, from),
    )) as PreparedTx;
    assert.deepEqual(begun.call, { contract: "points", function: "beginDefaultAdminTransfer", args: [carol.address] });
    await expectRoute("adminHandoverCancel", () => client.roles.handover.cancel("points", from));
    const held = (await expectRoute("rolesHeld", () => client.roles.held(brand.address))) as any;
    assert.deepEqual(
      held.roles
        .filter((r: { role: string }) => r.role === "DEFAULT_ADMIN_ROLE")
        .map((r: { contract: string }) => r.contract),
      ["factory", "points", "collateralVault", "pspVault"],
    );
    const plan = (await expectRoute("adminHandoverPlan", () =>
      client.roles.handover.plan({ newAdmin: carol.address }, from),
    )) as any;
    assert.deepEqual(
      plan.transactions.map((t: { call: { function: string } }) => t.call.function),
      ["factory", "points", "collateralVault", "pspVault"].map(() => "beginDefaultAdminTransfer"),
    );
    // Nothing is pending for carol: the build is refused (AccessControlInvalidDefaultAdmin).
    await expectRoute(
      "adminHandoverAccept",
      () => client.roles.handover.accept("points", { from: carol.address }),
      422,
    );
    const check = (await expectRoute("checkRole", () =>
      client.roles.check("factory", "MANAGER_ROLE", brand.address),
    )) as any;
    assert.equal(check.hasRole, true);
    const pause = (await expectRoute("pause", () => client.freeze.pause("points", from))) as PreparedTx;
    await pause.send(brand);
    await expectRoute("unpause", () => client.freeze.unpause("points", from));
  });

  it("settingsMethods_reachTheSettingsRoutes_landOnChain_andRefuseInputBeyondTheFactorysBounds", async () => {
    const { brand, carol } = live.actors;
    const from = { from: brand.address };
    const before = await client.read.factoryState();
    const delay = (await expectRoute("setRedeemDelay", () => client.settings.setRedeemDelay(7200, from))) as PreparedTx;
    assert.deepEqual(delay.call, { contract: "factory", function: "setRedeemDelay", args: [7200] });
    await delay.send(brand);
    const receiver = (await expectRoute("setFeeReceiver", () =>
      client.settings.setFeeReceiver(carol.address, from),
    )) as PreparedTx;
    await receiver.send(brand);
    // A fee needs a receiver that can receive SP: carol goes on the Points transfer allowlist first.
    await (await client.points.addToTransferWhitelist(carol.address, from)).send(brand);
    const fees = (await expectRoute("setFees", () =>
      client.settings.setFees({ mintFeeBps: 30, redeemFeeBps: 1000 }, from),
    )) as PreparedTx;
    assert.deepEqual(fees.call, { contract: "factory", function: "setFees", args: [30, 1000] });
    await fees.send(brand);
    const after = await client.read.factoryState();
    assert.deepEqual(
      [after.redeemDelay, after.mintFeeBps, after.redeemFeeBps, after.feeReceiver],
      [7200, 30, 1000, carol.address],
    );
    // Outside the Factory's bounds: 400 INVALID_INPUT naming the field, never a revert.
    const refused = await client.settings.setFees({ mintFeeBps: 1001, redeemFeeBps: 0 }, from).catch((e) => e);
    assert.ok(refused instanceof PointsApiError);
    assert.equal(refused.code, "INVALID_INPUT");
    assert.match(refused.message, /body\.input\.mintFeeBps: must be at most 1000/);
    // Back as they were, for the tests after this one.
    await (
      await client.settings.setFees({ mintFeeBps: before.mintFeeBps, redeemFeeBps: before.redeemFeeBps }, from)
    ).send(brand);
    await (await client.settings.setRedeemDelay(before.redeemDelay, from)).send(brand);
  });

  it("request_byRouteName_isTheCodePathOfTheNamespaces", async () => {
    const viaRequest = await expectRoute("getFactory", () => client.request("getFactory", { params: { id: "acme" } }));
    assert.deepEqual(viaRequest, await client.read.factory("acme"));
  });

  it("onboardingMethods_reachSectionERoutes_andHonourTheIdempotencyKey", async () => {
    const body = {
      brand: "sdkbrand",
      organization: { name: "SDK Co", website: "https://sdk.example", description: "Tests the SDK" },
      chainId: 31337,
      token: {
        name: "SDK Points",
        symbol: "SDKP",
        description: "Points",
        logoUrl: "https://sdk.example/logo.png",
        websiteUrl: "https://sdk.example",
      },
      deployer: live.actors.brand.address,
    };
    const queued = (await expectRoute(
      "onboardingDeploy",
      () => client.onboarding.deploy(body, { idempotencyKey: "sdk-1" }),
      202,
    )) as { taskId: string };
    assert.equal((await client.onboarding.deploy(body, { idempotencyKey: "sdk-1" })).taskId, queued.taskId);
    const task = (await expectRoute("onboardingTask", () => client.onboarding.task(queued.taskId))) as {
      brand: string;
    };
    assert.equal(task.brand, "sdkbrand");
    const mine = (await expectRoute("onboardingTasks", () => client.onboarding.tasks())) as { taskId: string }[];
    assert.ok(mine.some((t) => t.taskId === queued.taskId));
    // Only a failed task can be retried: this one is queued or running, so 409.
    await expectRoute("onboardingRetry", () => client.onboarding.retry(queued.taskId), 409);
    // Only a failed or unapproved task can be cancelled, only one awaiting approval approved.
    await expectRoute("onboardingCancel", () => client.onboarding.cancel(queued.taskId), 409);
    await expectRoute("operatorApproveTask", () => client.onboarding.approve(queued.taskId), 409);
    const asset = { chainId: "31337", kind: "collateral" as const, address: live.usdc };
    const added = (await expectRoute("operatorAssetAdd", () => client.onboarding.addAsset(asset, "USDC"))) as {
      label: string;
    };
    assert.equal(added.label, "USDC");
    const listed = (await expectRoute("operatorAssetsList", () => client.onboarding.assets("31337"))) as unknown[];
    assert.equal(listed.length, 1);
    await expectRoute("operatorAssetRemove", () => client.onboarding.removeAsset(asset));
    await expectRoute("operatorAssetRemove", () => client.onboarding.removeAsset(asset), 404);
  });

  it("ledgerMethods_reachTheLedgerRoutes", async () => {
    const { alice } = live.actors;
    const l = client.ledger;
    // The API's in-process indexer follows the chain two blocks deep (LEDGER_CONFIRMATIONS):
    // mine two blocks over the setup's last transaction (the redemption request), then wait
    // until the ledger holds both the setup's mint and that request.
    await live.node.mine(2);
    const indexed = async () =>
      (await Promise.all([l.campaignBalances("c1"), l.redemptions({ status: "pending" })])
        .then(([b, r]) => b.holders.length > 0 && r.requests.some((x) => x.requestId === requestId))
        .catch(() => false)) as boolean;
    const deadline = Date.now() + 30_000;
    while (!(await indexed()) && Date.now() < deadline) await sleep(50);
    const campaigns = (await expectRoute("ledgerCampaigns", () => l.campaigns())) as any;
    assert.equal(campaigns.program, "acme");
    assert.equal(campaigns.campaigns[0].budget, SP("50"));
    const balances = (await expectRoute("ledgerCampaignBalances", () => l.campaignBalances("c1", { limit: 5 }))) as any;
    assert.deepEqual(balances.holders, [{ holder: alice.address, balance: SP("10") }]);
    const history = (await expectRoute("ledgerHolderHistory", () =>
      l.holderHistory(alice.address, { limit: 1 }),
    )) as any;
    assert.equal(history.address, alice.address);
    assert.equal(history.events.length, 1);
    // Newest first, and later tests of this suite add the campaign's status changes: find the setup's mint.
    const events = (await expectRoute("ledgerCampaignLedger", () => l.campaignLedger("c1", { limit: 500 }))) as any;
    assert.equal(events.events.filter((x: any) => x.event === "PSPMinted").length, 1);
    const sp = (await expectRoute("ledgerSpHolders", () => l.spHolders({ limit: 500 }))) as any;
    assert.ok(sp.holders.length > 0);
    // Every pSP holder of c1 is a customer, found again by its own address as prefix.
    const c1 = await l.campaignBalances("c1", { limit: 500 });
    for (const h of c1.holders) {
      const found = (await expectRoute("ledgerCustomers", () =>
        l.customers({ prefix: h.holder, minBalance: 0n }),
      )) as any;
      assert.deepEqual(
        found.customers.map((c: any) => c.holder),
        [h.holder],
      );
    }
    const lists = (await expectRoute("ledgerAllowlists", () => l.allowlists())) as any;
    assert.ok(lists.transfer.includes(alice.address));
    const roles = (await expectRoute("ledgerRoles", () => l.roles())) as any;
    assert.ok(roles.contracts.some((c: any) => c.contract === "pspVault"));
    const grants = (await expectRoute("ledgerRoleHistory", () => l.roleHistory({ limit: 2 }))) as any;
    assert.equal(grants.events.length, 2);
    const pending = (await expectRoute("ledgerRedemptions", () => l.redemptions({ status: "pending" }))) as any;
    assert.deepEqual(
      pending.requests.map((r: any) => r.requestId),
      [requestId],
    );
    // The CSV exports: the text of the file, the setup's mint among its rows.
    log.length = 0;
    const csv = await l.holderHistoryCsv(alice.address);
    assert.deepEqual(
      log.map((r) => [r.method, r.path, r.status]),
      [["GET", `/api/v1/ledger/holders/${alice.address}/history.csv`, 200]],
    );
    const [header, ...rows] = csv.trimEnd().split("\n");
    assert.equal(
      header,
      "blockNumber,logIndex,time,txHash,contract,address,event,campaignId,from,to,amount,metadata,args",
    );
    assert.ok(
      rows.some((r) => r.includes(",PSPMinted,") && r.includes(`,${alice.address},${SP("10")},`)),
      csv,
    );
    const ledgerCsv = await l.campaignLedgerCsv("c1");
    assert.ok(ledgerCsv.split("\n")[1]!.includes(",CampaignCreated,"), ledgerCsv);
    await assert.rejects(l.holderHistoryCsv(alice.address, { program: "nobody" }), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.deepEqual([e.code, e.status], ["NOT_FOUND", 404]);
      return true;
    });
  });

  it("ledgerWebhookMethods_reachTheWebhookRoutes", async () => {
    const w = client.ledger.webhooks;
    // A public address: the live API allows no private target; paused at once, nothing is sent.
    const hook = (await expectRoute(
      "ledgerWebhookCreate",
      () => w.subscribe({ webhookUrl: "https://8.8.8.8/hooks", eventTypes: ["PSPMinted"] }),
      201,
    )) as any;
    assert.match(hook.secret, /^whsec_/);
    // The same URL and filter again: the same subscription (200), its secret not shown again.
    const again = (await expectRoute(
      "ledgerWebhookCreate",
      () => w.subscribe({ webhookUrl: "https://8.8.8.8/hooks", eventTypes: ["PSPMinted"] }),
      200,
    )) as any;
    assert.deepEqual([again.id, again.created, again.secret], [hook.id, false, null]);
    assert.equal(((await expectRoute("ledgerWebhookPause", () => w.pause(hook.id))) as any).status, "paused");
    const listed = (await expectRoute("ledgerWebhookList", () => w.list())) as any[];
    assert.deepEqual(
      listed.map((h) => [h.id, h.status, h.eventTypes, "secret" in h]),
      [[hook.id, "paused", ["PSPMinted"], false]],
    );
    const log = (await expectRoute("ledgerWebhookDeliveries", () => w.deliveries(hook.id, { limit: 10 }))) as any;
    assert.deepEqual(log, { deliveries: [], nextCursor: null });
    await expectRoute(
      "ledgerWebhookRedeliver",
      () => w.redeliver(hook.id, "00000000-0000-4000-8000-000000000000"),
      404,
    );
    const replay = (await expectRoute("ledgerWebhookReplay", () =>
      w.replay(hook.id, { fromBlock: 0, toBlock: 0 }),
    )) as any;
    assert.deepEqual(replay, { queued: 0 });
    await expectRoute("ledgerWebhookResume", () => w.resume(hook.id));
    // The operator (this key holds the admin scope) lists, holds and releases any tenant's webhook.
    const op = client.operator.webhooks;
    const all = (await expectRoute("operatorWebhooksList", () => op.list({ status: "active" }))) as any[];
    assert.deepEqual(
      all.filter((h) => h.id === hook.id).map((h) => h.operatorHold),
      [false],
    );
    assert.equal(((await expectRoute("operatorWebhookPause", () => op.pause(hook.id))) as any).operatorHold, true);
    assert.equal(((await expectRoute("operatorWebhookResume", () => op.resume(hook.id))) as any).operatorHold, false);
    assert.deepEqual(await expectRoute("ledgerWebhookDelete", () => w.remove(hook.id)), { deleted: true });
    await expectRoute("operatorWebhookDelete", () => op.remove(hook.id), 404);
  });

  it("safeMethods_reachTheProposalRoutes_twoOwnersSign_andTheRelayerExecutes_onARealSafe", async () => {
    await walkSafeProposals(live, client, safe, expectRoute);
  });

  it("bulk_mintSettleExpire_reachTheirRoutes_asDryRuns", async () => {
    const { brand, alice } = live.actors;
    const one = { campaignId: "c1", recipients: [{ address: alice.address, amount: "1" }], dryRun: true };
    const plan = (await expectRoute("bulkPspMint", () => client.bulk.mint({ ...one, from: brand.address }))) as {
      rowCount: number;
      totalAmount: string;
    };
    assert.deepEqual([plan.rowCount, plan.totalAmount], [1, SP("1").toString()]);
    await expectRoute("bulkPspSettle", () =>
      client.bulk.settle({ ...one, settlementReceiver: alice.address, from: brand.address }),
    );
    await expectRoute("bulkPspExpire", () => client.bulk.expire({ ...one, from: brand.address }));
  });

  it("deskMethods_readTheDesk_setItsPolicyAsTheManager_andDecide_signedWithTheSchemasTypedData", async () => {
    const programId = live.program.brand;
    const desk = (await expectRoute("redemptionDeskGet", () => client.desk.get(programId))) as DeskView;
    assert.deepEqual([desk.policy, desk.version, desk.status], ["off", 0, "off"]);
    // The SDK's typed data is the schema's, which the server checks against.
    const i = { kind: "policy" as const, policy: "manual" as const, version: 0, signedUntil: 1_900_000_000 };
    assert.deepEqual(deskTypedData(31337, desk.factory, i), deskSchemaTypedData(31337, desk.factory, i));
    const set = (await expectRoute("redemptionDeskPolicySet", () =>
      client.desk.setPolicy(desk, "manual", live.actors.brand),
    )) as DeskView;
    assert.deepEqual([set.policy, set.version, set.status], ["manual", 1, "ready"]);
    await expectRoute("redemptionDeskPolicySet", () => client.desk.setPolicy(desk, "off", live.actors.brand), 409);
    await expectRoute(
      "redemptionDeskDecide",
      () => client.desk.reject(set, "999999", "unknown", live.actors.brand),
      404,
    );
    // The operator (this key holds the admin scope) sets the program's own bounds, then restores the defaults.
    const own = (await expectRoute("operatorDeskBoundsSet", () =>
      client.operator.desk.setBounds(programId, { minAmount: "7", gasBudgetPerDay: "0" }),
    )) as { bounds: { minAmount: string; gasBudgetPerDay: string } };
    assert.deepEqual([own.bounds.minAmount, own.bounds.gasBudgetPerDay], ["7", "0"]);
    const again = (await expectRoute("redemptionDeskGet", () => client.desk.get(programId))) as DeskView;
    assert.deepEqual([again.bounds.minAmount, again.bounds.gasBudgetPerDay], ["7", "0"]);
    await expectRoute("operatorDeskBoundsSet", () =>
      client.operator.desk.setBounds(programId, { minAmount: null, gasBudgetPerDay: null }),
    );
  });

  it("devFaucet_buildsTheMockCollateralsMint_forFrom_andItLands", async () => {
    const { carol } = live.actors;
    const amount = parseUnits("3", 6);
    const built = (await expectRoute("devFaucet", () =>
      client.dev.faucet({ asset: live.usdc, amount: amount.toString() }, { from: carol.address }),
    )) as PreparedTx;
    assert.deepEqual(built.call, { contract: "asset", function: "mint", args: [carol.address, amount.toString()] });
    const usdc = new Contract(live.usdc, ["function balanceOf(address) view returns (uint256)"], live.node.provider);
    const before = (await usdc.balanceOf!(carol.address)) as bigint;
    await built.send(carol);
    assert.equal(await usdc.balanceOf!(carol.address), before + amount);
  });

  it("everyRouteOfTheTable_isReachedByAClientMethod", () => {
    // The console's routes (sign-in, wizard) serve the web console, not integrators: they are
    // not in the SDK (routeTable.test.ts). onboardingTaskApi is the same task read under
    // /api/v1 (the API serves it at both paths); the SDK uses /v1.
    const missing = (Object.keys(routes) as RouteName[]).filter(
      (n) => routes[n].tag !== "console" && n !== "onboardingTaskApi" && !reached.has(n),
    );
    assert.deepEqual(missing, []);
  });
});
