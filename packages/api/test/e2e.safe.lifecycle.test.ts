import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, type Wallet } from "ethers";
import { PointsV2Mock__factory } from "@points/contracts";
import { signerFieldOf, routes, type RouteName, type SafeProposal } from "@points/schema";
import { devSafe, devWallet, plainSafeTx, safeContract } from "@points/testkit";
import { expectError, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { safeProposer, signProposal } from "./helpers/safe.js";

// A program run by real 2-of-3 Safes v1.4.1 from its handover on (docs/architecture.md#safe-multisig):
// the admin Safe takes DEFAULT_ADMIN_ROLE, creates a campaign, configures a minter, pauses,
// unpauses and upgrades Points; a second Safe (SETTLEMENT_ADMIN) settles the minter's pSP. Every
// step is a proposal signed by two owners and relayed, then checked on chain; the refusals last.
const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
const CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;

describe("e2e: a program run by 2-of-3 Safes, from the handover to an upgrade", () => {
  let e: E2E;
  let admin: Awaited<ReturnType<typeof devSafe>>;
  let settler: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  const label = "safe-lifecycle";
  const campaignId = id(label);
  before(async () => {
    e = await setupE2E();
    admin = await devSafe(e.node.provider);
    settler = await devSafe(e.node.provider, { infra: admin.infra, saltNonce: 11n });
    relayer = devWallet(9, e.node.provider);
    // Before the handover the brand funds the vault with 100 SP and lets carol receive SP.
    const { brand, carol } = e.who;
    await e.giveSp(brand.address, SP(100));
    await (await e.c.points.connect(brand).transfer(e.record.pspVault, SP(100))).wait();
    await (await e.c.points.connect(brand).addToTransferWhitelist(carol.address)).wait();
  });
  after(() => e?.stop());

  const nonceOf = async (safe: string) => (await safeContract(safe, e.node.provider).getFunction("nonce")()) as bigint;
  const rolesOf = async (address: string) =>
    expectOk("rolesHeld", await e.call("rolesHeld", { params: { address } })).roles.map(
      (r) => `${r.contract}.${r.role}`,
    );
  /** Route `name` built with `safe` as its signer; its Safe transaction. */
  const build = async (safe: string, name: RouteName, body: object) => {
    const signer = signerFieldOf(routes[name]);
    const built = expectOk(name, await e.call(name, { body: { ...body, [signer]: safe } })) as {
      safe?: { tx: SafeProposal["tx"] };
    };
    assert.ok(built.safe, `${name} answers a Safe transaction for a Safe signer`);
    return built.safe.tx;
  };
  /** Proposes `tx`, two owners sign, the relayer sends execTransaction; the Safe's nonce moved by one. */
  const run = async (safe: Awaited<ReturnType<typeof devSafe>>, tx: SafeProposal["tx"]) => {
    const nonce = await nonceOf(safe.address);
    await safeProposer(e, safe, relayer).run(tx);
    assert.equal(await nonceOf(safe.address), nonce + 1n);
  };

  it("handover_theBrandBeginsAndDropsItsOtherRoles_theAdminSafeAccepts_andGrantsItselfAndTheSettlerSafe_inOneProposal", async () => {
    const { brand } = e.who;
    const body = { key: brand.address, input: { newAdmin: admin.address, revokeOtherRoles: true } };
    const plan = expectOk("adminHandoverPlan", await e.call("adminHandoverPlan", { body }));
    for (const t of plan.transactions!) await e.send(brand, t);
    await e.node.increaseTime(1);
    await e.node.mine();
    const grant = (contract: string, role: string, account: string) => ({
      route: "grantRole",
      body: { input: { contract, role, account } },
    });
    const actions = [
      ...CONTRACTS.map((contract) => ({ route: "adminHandoverAccept", body: { input: { contract } } })),
      grant("pspVault", "MANAGER_ROLE", admin.address),
      grant("points", "PAUSER_ROLE", admin.address),
      grant("pspVault", "SETTLEMENT_ADMIN_ROLE", settler.address),
    ];
    const batch = { safe: admin.address, actions, multiSendCallOnly: admin.infra.multiSendCallOnly };
    await run(admin, expectOk("safeBatch", await e.call("safeBatch", { body: batch })).safe.tx);
    for (const c of CONTRACTS) assert.equal(await e.c[c].defaultAdmin(), admin.address, c);
    assert.deepEqual(await rolesOf(brand.address), []);
    assert.deepEqual(await rolesOf(admin.address), [
      "factory.DEFAULT_ADMIN_ROLE",
      "points.DEFAULT_ADMIN_ROLE",
      "points.PAUSER_ROLE",
      "collateralVault.DEFAULT_ADMIN_ROLE",
      "pspVault.DEFAULT_ADMIN_ROLE",
      "pspVault.MANAGER_ROLE",
    ]);
    assert.deepEqual(await rolesOf(settler.address), ["pspVault.SETTLEMENT_ADMIN_ROLE"]);
  });

  it("campaign_createdByTheAdminSafe_takes40SpOfTheVault_withCarolAsSettlementDestination", async () => {
    const unallocated = await e.c.pspVault.unallocated();
    const body = {
      campaignId: label,
      spBudget: SP(40).toString(),
      settlementDestinations: [e.who.carol.address],
      transferWhitelist: [],
      metadata: "",
    };
    await run(admin, await build(admin.address, "pspCreateCampaign", body));
    const c = await e.c.pspVault.getCampaign(campaignId);
    assert.deepEqual([c.budget, c.available, c.outstanding, c.creator], [SP(40), SP(40), 0n, admin.address]);
    assert.equal(unallocated - (await e.c.pspVault.unallocated()), SP(40));
    assert.equal(await e.c.pspVault.isSettlementWhitelisted(campaignId, e.who.carol.address), true);
  });

  it("minter_configuredByTheAdminSafe_thenIssues7PspToBob_withinItsLimitOf10", async () => {
    const { alice, bob } = e.who;
    const body = { campaignId: label, minter: alice.address, limit: SP(10).toString(), active: true };
    await run(admin, await build(admin.address, "pspConfigureMinter", body));
    const config = await e.c.pspVault.getMinterConfig(campaignId, alice.address);
    assert.deepEqual([config.limit, config.active], [SP(10), true]);
    const mint = { campaignId: label, to: bob.address, amount: SP(7).toString(), metadata: "", from: alice.address };
    await e.send(alice, expectOk("pspMint", await e.call("pspMint", { body: mint })));
    assert.equal(await e.c.pspVault.balanceOf(campaignId, bob.address), SP(7));
  });

  it("settlement_byTheSettlementAdminSafe_moves4SpFromBobsPspToCarol", async () => {
    const { bob, carol } = e.who;
    const before = await e.c.points.balanceOf(carol.address);
    const body = {
      campaignId: label,
      holder: bob.address,
      receiver: carol.address,
      amount: SP(4).toString(),
      metadata: "",
    };
    await run(settler, await build(settler.address, "pspSettle", body));
    assert.equal(await e.c.pspVault.balanceOf(campaignId, bob.address), SP(3));
    assert.equal((await e.c.points.balanceOf(carol.address)) - before, SP(4));
  });

  it("pauseAndUnpause_ofPoints_byTheAdminSafe", async () => {
    await run(admin, await build(admin.address, "pause", { input: { contract: "points" } }));
    assert.equal(await e.c.points.paused(), true);
    await run(admin, await build(admin.address, "unpause", { input: { contract: "points" } }));
    assert.equal(await e.c.points.paused(), false);
  });

  it("upgrade_ofPoints_proposedToTheAdminSafe_pointsTheProxyAtTheNewImplementation_andKeepsItsState", async () => {
    const { carol } = e.who;
    const impl = await new PointsV2Mock__factory(relayer).deploy();
    await impl.waitForDeployment();
    const before = { supply: await e.c.points.totalSupply(), carol: await e.c.points.balanceOf(carol.address) };
    const data = e.c.points.interface.encodeFunctionData("upgradeToAndCall", [await impl.getAddress(), "0x"]);
    await run(admin, plainSafeTx(e.record.points, data, await nonceOf(admin.address)));
    const slot = await e.node.provider.getStorage(e.record.points, IMPLEMENTATION_SLOT);
    assert.equal(`0x${slot.slice(-40)}`, (await impl.getAddress()).toLowerCase());
    assert.equal(await PointsV2Mock__factory.connect(e.record.points, e.node.provider).version(), "2");
    assert.deepEqual(
      { supply: await e.c.points.totalSupply(), carol: await e.c.points.balanceOf(carol.address) },
      before,
    );
    assert.equal(await e.c.points.defaultAdmin(), admin.address);
    assert.equal(await e.c.points.isTransferWhitelisted(carol.address), true);
  });

  it("refusals_aWrongOwnersSignatureIs403_executionBelowThresholdIs409_andAReplacedNonceIs409", async () => {
    const draft = async (tx: SafeProposal["tx"]) => {
      const created = expectOk(
        "safeProposalCreate",
        await e.call("safeProposalCreate", {
          body: {
            chainId: 31337,
            safe: admin.address,
            tx,
            signature: await signProposal(admin.owners[0]!, { chainId: "31337", safe: admin.address, tx }),
          },
        }),
      );
      return created;
    };
    const pause = await draft(await build(admin.address, "pause", { input: { contract: "points" } }));
    const sign = (p: { id: string; tx: SafeProposal["tx"] }, w: Wallet) =>
      signProposal(w, { chainId: "31337", safe: admin.address, tx: p.tx }).then((signature) =>
        e.call("safeProposalSign", { params: { proposalId: p.id }, body: { signature } }),
      );
    const execute = (pid: string) =>
      e.call("safeProposalExecute", { params: { proposalId: pid }, body: { from: relayer.address } });
    // An owner of the settler Safe is no owner here; dev account 9 owns no Safe.
    const stranger = expectError(await sign(pause, relayer), 403, "FORBIDDEN");
    assert.deepEqual([stranger.reason, stranger.signer], ["NOT_AN_OWNER", relayer.address]);
    assert.deepEqual(expectError(await execute(pause.id), 409, "CONFLICT"), {
      reason: "BELOW_THRESHOLD",
      signatures: 1,
      threshold: 2,
    });
    // Another proposal of the same nonce executes first: the pause is replaced.
    const manager = { input: { contract: "factory", role: "MANAGER_ROLE", account: admin.address } };
    const grant = await draft(await build(admin.address, "grantRole", manager));
    assert.equal(grant.tx.nonce, pause.tx.nonce);
    expectOk("safeProposalSign", await sign(grant, admin.owners[1]!));
    await e.send(relayer, expectOk("safeProposalExecute", await execute(grant.id)));
    assert.equal(await e.c.factory.hasRole(id("MANAGER_ROLE"), admin.address), true);
    const late = expectError(await sign(pause, admin.owners[1]!), 409, "CONFLICT");
    assert.deepEqual(late, { reason: "NONCE_USED", status: "replaced" });
    assert.equal(expectError(await execute(pause.id), 409, "CONFLICT").reason, "NONCE_USED");
    assert.equal(await e.c.points.paused(), false);
  });
});
