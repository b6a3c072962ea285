import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroAddress, ZeroHash, id, type Wallet } from "ethers";
import { devSafe, devWallet } from "@points/testkit";
import { expectError, expectMissingRole, expectOk, setupE2E, type E2E } from "./helpers/e2e.js";
import { safeProposer } from "./helpers/safe.js";

// The begin step of a handover with the old admin's other roles listed (GET /api/v1/roles/held)
// and revoked in the same proposal (POST /api/v1/roles/admin-handover/plan), on a real 2-of-3
// Safe v1.4.1 and from a wallet (docs/deployment.md#admin-handover); each step checked on chain.
describe("e2e: handover plan: the old admin's other roles listed and revoked with the begin step", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  const CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
  });
  after(() => e?.stop());

  const held = (address: string, auth?: Record<string, string>) =>
    auth
      ? e.api.call("GET", `/api/v1/roles/held/${address}`, undefined, auth)
      : e.call("rolesHeld", { params: { address } });
  const rolesOf = async (address: string) =>
    expectOk("rolesHeld", await held(address)).roles.map((r) => `${r.contract}.${r.role}`);
  const plan = (key: string, input: object, auth?: Record<string, string>) => {
    const body = { key, input: { multiSendCallOnly: safe.infra.multiSendCallOnly, ...input } };
    return auth
      ? e.api.call("POST", "/api/v1/roles/admin-handover/plan", body, auth)
      : e.call("adminHandoverPlan", { body });
  };
  const nextBlock = async () => {
    await e.node.increaseTime(1);
    await e.node.mine();
  };
  const admins = () => Promise.all(CONTRACTS.map((c) => e.c[c].defaultAdmin()));
  const pending = () => Promise.all(CONTRACTS.map(async (c) => (await e.c[c].pendingDefaultAdmin())[0]));

  // What the deploy grants the brand wallet, in the contracts' listing order.
  const BRAND_ROLES = [
    "factory.DEFAULT_ADMIN_ROLE",
    "factory.MANAGER_ROLE",
    "factory.PAUSER_ROLE",
    "points.DEFAULT_ADMIN_ROLE",
    "points.PAUSER_ROLE",
    "collateralVault.DEFAULT_ADMIN_ROLE",
    "collateralVault.PAUSER_ROLE",
    "pspVault.DEFAULT_ADMIN_ROLE",
    "pspVault.CAMPAIGN_ADMIN_ROLE",
    "pspVault.ISSUING_ADMIN_ROLE",
    "pspVault.MANAGER_ROLE",
    "pspVault.PAUSER_ROLE",
    "pspVault.SETTLEMENT_ADMIN_ROLE",
    "pspVault.TRANSFER_ADMIN_ROLE",
  ];
  const ADMINS_ONLY = CONTRACTS.map((c) => `${c}.DEFAULT_ADMIN_ROLE`);

  it("rolesHeld_listsExactlyTheRolesTheChainGrants_andSaysWhetherTheAddressIsASafe", async () => {
    const { brand, alice } = e.who;
    assert.deepEqual(await rolesOf(brand.address), BRAND_ROLES);
    assert.deepEqual(await rolesOf(alice.address), []);
    await (await e.c.pspVault.connect(brand).grantRole(id("MANAGER_ROLE"), alice.address)).wait();
    const res = expectOk("rolesHeld", await held(alice.address.toLowerCase()));
    assert.deepEqual(res, {
      program: "acme",
      chainId: "31337",
      address: alice.address,
      safe: false,
      roles: [{ contract: "pspVault", contractAddress: e.record.pspVault, role: "MANAGER_ROLE" }],
    });
    const ofSafe = expectOk("rolesHeld", await held(safe.address));
    assert.deepEqual([ofSafe.safe, ofSafe.roles], [true, []]);
  });

  it("aStranger_planningAHandover_is403MissingRole_andNothingIsBuilt", async () => {
    const { alice, carol } = e.who;
    expectMissingRole(await plan(alice.address, { newAdmin: carol.address, revokeOtherRoles: true }), {
      contract: "factory",
      role: "DEFAULT_ADMIN_ROLE",
      account: alice.address,
    });
  });

  it("anotherTenantsKey_is404OnBothRoutes_likeAnUnknownProgram_theOwnersKeyReads_andNoKeyIs401", async () => {
    const { ctx } = e.api.service;
    const { brand, carol } = e.who;
    const owner = await ctx.keys.create("tenant-a");
    const other = await ctx.keys.create("tenant-b");
    const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
    await ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ('plan-tenant', $1, 'h', '{}', 'acme', '31337', 'succeeded', 'acme')`,
      [owner.info.id],
    );
    try {
      expectError(await held(brand.address, bearer(other.key)), 404, "NOT_FOUND");
      const refused = await plan(brand.address, { newAdmin: carol.address }, bearer(other.key));
      expectError(refused, 404, "NOT_FOUND");
      assert.ok(!JSON.stringify(refused.body).includes(e.record.pspVault));
      const mine = expectOk("rolesHeld", await held(brand.address, bearer(owner.key)));
      assert.deepEqual(
        mine.roles.map((r) => `${r.contract}.${r.role}`),
        BRAND_ROLES,
      );
      expectError(await held(brand.address, {}), 401, "UNAUTHORIZED");
      expectError(await plan(brand.address, { newAdmin: carol.address }, {}), 401, "UNAUTHORIZED");
    } finally {
      await ctx.db.query("DELETE FROM onboarding_tasks WHERE id = 'plan-tenant'");
    }
  });

  it("walletToSafe_thePlanBeginsOnFourContracts_andRevokesTheWalletsTenOtherRoles_inOrderWithConsecutiveNonces", async () => {
    const { brand } = e.who;
    const res = expectOk(
      "adminHandoverPlan",
      await plan(brand.address, { newAdmin: safe.address, revokeOtherRoles: true }),
    );
    assert.equal(res.batch, undefined, "a wallet gets transactions");
    assert.deepEqual(
      res.held.map((r) => `${r.contract}.${r.role}`),
      BRAND_ROLES,
    );
    assert.deepEqual(
      res.actions.map((a) => `${a.route}:${a.contract}.${a.role}`),
      [
        ...CONTRACTS.map((c) => `adminHandoverBegin:${c}.DEFAULT_ADMIN_ROLE`),
        ...BRAND_ROLES.filter((r) => !r.endsWith(".DEFAULT_ADMIN_ROLE")).map((r) => `revokeRole:${r}`),
      ],
    );
    const txs = res.transactions!;
    assert.equal(txs.length, 14);
    const first = await e.node.provider.getTransactionCount(brand.address, "pending");
    assert.deepEqual(
      txs.map((t) => t.nonce),
      txs.map((_, i) => first + i),
    );
    assert.deepEqual(
      txs.map((t) => t.call.function),
      [...CONTRACTS.map(() => "beginDefaultAdminTransfer"), ...Array(10).fill("revokeRole")],
    );
    for (const t of txs) await e.send(brand, t);
    assert.deepEqual(
      await pending(),
      CONTRACTS.map(() => safe.address),
    );
    assert.deepEqual(await rolesOf(brand.address), ADMINS_ONLY);
    // The Safe accepts on the four contracts in one batch proposal; the brand then holds nothing.
    await nextBlock();
    const actions = CONTRACTS.map((contract) => ({ route: "adminHandoverAccept", body: { input: { contract } } }));
    const body = { safe: safe.address, actions, multiSendCallOnly: safe.infra.multiSendCallOnly };
    const built = expectOk("safeBatch", await e.call("safeBatch", { body }));
    await safeProposer(e, safe, relayer).run(built.safe.tx);
    assert.deepEqual(
      await admins(),
      CONTRACTS.map(() => safe.address),
    );
    assert.deepEqual(await rolesOf(brand.address), []);
    assert.deepEqual(await rolesOf(safe.address), ADMINS_ONLY);
  });

  it("safeToWallet_thePlanIsOneBatchProposal_beginningOnFourContracts_andRevokingTheSafesPauserRoles", async () => {
    const { carol } = e.who;
    const PAUSER = id("PAUSER_ROLE");
    const grant = (["factory", "points"] as const).map((contract) => ({
      route: "grantRole",
      body: { input: { contract, role: "PAUSER_ROLE", account: safe.address } },
    }));
    const proposer = safeProposer(e, safe, relayer);
    const body = { safe: safe.address, actions: grant, multiSendCallOnly: safe.infra.multiSendCallOnly };
    await proposer.run(expectOk("safeBatch", await e.call("safeBatch", { body })).safe.tx);
    assert.deepEqual(await rolesOf(safe.address), [
      "factory.DEFAULT_ADMIN_ROLE",
      "factory.PAUSER_ROLE",
      "points.DEFAULT_ADMIN_ROLE",
      "points.PAUSER_ROLE",
      "collateralVault.DEFAULT_ADMIN_ROLE",
      "pspVault.DEFAULT_ADMIN_ROLE",
    ]);
    const res = expectOk(
      "adminHandoverPlan",
      await plan(safe.address, { newAdmin: carol.address, revokeOtherRoles: true }),
    );
    assert.equal(res.transactions, undefined, "a Safe gets one batch");
    const batch = res.batch!;
    assert.equal(batch.safe.tx.to, safe.infra.multiSendCallOnly);
    assert.equal(batch.safe.tx.operation, 1);
    assert.deepEqual(
      batch.actions.map((a) => [a.route, a.call.function]),
      [
        ...CONTRACTS.map(() => ["adminHandoverBegin", "beginDefaultAdminTransfer"]),
        ["revokeRole", "revokeRole"],
        ["revokeRole", "revokeRole"],
      ],
    );
    await proposer.run(batch.safe.tx);
    assert.deepEqual(
      await pending(),
      CONTRACTS.map(() => carol.address),
    );
    assert.equal(await e.c.factory.hasRole(PAUSER, safe.address), false);
    assert.equal(await e.c.points.hasRole(PAUSER, safe.address), false);
    assert.deepEqual(await rolesOf(safe.address), ADMINS_ONLY);
    // Without revokeOtherRoles the plan is the four begins alone.
    const plain = expectOk("adminHandoverPlan", await plan(safe.address, { newAdmin: carol.address }));
    assert.deepEqual(
      plain.actions.map((a) => a.route),
      CONTRACTS.map(() => "adminHandoverBegin"),
    );
    assert.equal(await e.c.factory.hasRole(ZeroHash, safe.address), true);
    assert.notEqual((await e.c.factory.pendingDefaultAdmin())[0], ZeroAddress);
  });
});
