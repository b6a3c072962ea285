import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, type Wallet } from "ethers";
import { devSafe, devWallet, plainSafeTx, safeContract, safeTxArgs } from "@points/testkit";
import { expectError, expectMissingRole, expectOk, setupE2E, SP, type E2E } from "./helpers/e2e.js";
import { safeProposer, signProposal } from "./helpers/safe.js";

// Safe batches (docs/architecture.md#safe-multisig): several build routes' calls in one Safe
// transaction, a delegatecall to MultiSendCallOnly v1.4.1, simulated in order from the Safe,
// stored as a proposal, signed by two owners of a real 2-of-3 Safe, executed, checked on chain.
describe("e2e: Safe batch through MultiSendCallOnly: built, simulated in order, proposed, executed", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  let proposer: ReturnType<typeof safeProposer>;
  let otherAuth: Record<string, string>;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
    proposer = safeProposer(e, safe, relayer);
    // The Safe is the PSPVault's MANAGER: it creates campaigns from the vault's unallocated SP.
    await (await e.c.pspVault.connect(e.who.brand).grantRole(id("MANAGER_ROLE"), safe.address)).wait();
    await e.giveSp(e.who.brand.address, SP(100));
    await (await e.c.points.connect(e.who.brand).transfer(e.record.pspVault, SP(100))).wait();
    otherAuth = { authorization: `Bearer ${(await e.api.service.ctx.keys.create("other tenant")).key}` };
  });
  after(() => e?.stop());

  const batch = (body: object) =>
    e.call("safeBatch", { body: { multiSendCallOnly: safe.infra.multiSendCallOnly, ...body } });
  const nonceOf = async () => (await safeContract(safe.address, e.node.provider).getFunction("nonce")()) as bigint;
  const minter = (campaignId: string, who: string, limit: bigint) => ({
    route: "pspConfigureMinter",
    body: { campaignId, minter: who, limit: limit.toString(), active: true },
  });
  const create = (campaignId: string, sp: bigint) => ({
    route: "pspCreateCampaign",
    body: { campaignId, spBudget: sp.toString(), settlementDestinations: [], transferWhitelist: [], metadata: "" },
  });

  it("batch_createsACampaign_configuresThreeMinters_addsTwoSettlementDestinations_oneSafeTxSignedByTwoOwners_exactStateOnChain", async () => {
    const { alice, bob, carol, brand } = e.who;
    const label = "batch-launch";
    const campaignId = id(label);
    const before = { nonce: await nonceOf(), unallocated: await e.c.pspVault.unallocated() };
    const actions = [
      create(label, SP(30)),
      minter(label, alice.address, SP(10)),
      minter(label, bob.address, SP(5)),
      minter(label, carol.address, SP(1)),
      { route: "pspUpdateSettlementWhitelist", body: { campaignId: label, account: carol.address, allowed: true } },
      { route: "pspUpdateSettlementWhitelist", body: { campaignId: label, account: brand.address, allowed: true } },
    ];
    const built = expectOk("safeBatch", await batch({ safe: safe.address, actions }));
    assert.equal(built.chainId, "31337");
    assert.equal(built.multiSendCallOnly, safe.infra.multiSendCallOnly);
    assert.deepEqual(
      built.actions.map((a) => [a.route, a.to, a.call.function]),
      actions.map((a, i) => [
        a.route,
        e.record.pspVault,
        i === 0 ? "createCampaign" : i < 4 ? "setMinter" : "updateSettlementWhitelist",
      ]),
    );
    assert.equal(built.actions[1]!.campaignId?.value, campaignId);
    const s = built.safe;
    assert.deepEqual([s.tx.operation, s.tx.to, s.tx.nonce], [1, safe.infra.multiSendCallOnly, before.nonce.toString()]);
    // The hash the owners sign is the Safe's own.
    const onChainHash = await safeContract(safe.address, e.node.provider).getFunction("getTransactionHash")(
      ...safeTxArgs(s.tx),
    );
    assert.equal(s.safeTxHash, onChainHash);

    const pid = await proposer.proposeSigned(s.tx);
    const proposal = expectOk("safeProposalGet", await e.call("safeProposalGet", { params: { proposalId: pid } }));
    assert.deepEqual([proposal.status, proposal.missing, proposal.safeTxHash], ["executable", 0, s.safeTxHash]);
    await e.send(relayer, expectOk("safeProposalExecute", await proposer.execute(pid)));

    assert.equal(await nonceOf(), before.nonce + 1n);
    const c = await e.c.pspVault.getCampaign(campaignId);
    assert.deepEqual([c.creator, c.budget, c.available], [safe.address, SP(30), SP(30)]);
    assert.equal(await e.c.pspVault.unallocated(), before.unallocated - SP(30));
    for (const [who, limit] of [
      [alice, SP(10)],
      [bob, SP(5)],
      [carol, SP(1)],
    ] as const) {
      const m = await e.c.pspVault.getMinterConfig(campaignId, who.address);
      assert.deepEqual([m.limit, m.active], [limit, true], who.address);
    }
    assert.equal(await e.c.pspVault.isSettlementWhitelisted(campaignId, carol.address), true);
    assert.equal(await e.c.pspVault.isSettlementWhitelisted(campaignId, brand.address), true);
    assert.equal(await e.c.pspVault.isSettlementWhitelisted(campaignId, alice.address), false);
    const done = expectOk("safeProposalGet", await e.call("safeProposalGet", { params: { proposalId: pid } }));
    assert.equal(done.status, "executed");
  });

  it("batch_whoseThirdActionFailsOnlyAfterTheFirst_is422NamingActionTwo", async () => {
    const res = await batch({
      safe: safe.address,
      actions: [create("twice", SP(1)), minter("twice", e.who.alice.address, SP(1)), create("twice", SP(1))],
    });
    const d = expectError(res, 422, "WOULD_REVERT");
    assert.deepEqual([d.action, d.route, d.reason], [2, "pspCreateCampaign", "REVERTS_AFTER_EARLIER_ACTIONS"]);
    assert.match(res.body.error.message, /^action 2 \(pspCreateCampaign\)/);
  });

  it("batch_whoseSecondActionReverts_onItsOwn_is422WithTheDecodedError_andTheActionIndex", async () => {
    const unknown = id("no-such-campaign");
    const res = await batch({
      safe: safe.address,
      actions: [create("fine", SP(1)), minter(unknown, e.who.alice.address, SP(1))],
    });
    const d = expectError(res, 404, "NOT_FOUND");
    assert.deepEqual(
      [d.action, d.route, d.contract, d.name],
      [1, "pspConfigureMinter", "pspVault", "CampaignNotFound"],
    );
  });

  it("batch_withAnActionTheSafeLacksTheRoleFor_is403MissingRole_naming_theActionAndTheSafe", async () => {
    const res = await batch({
      safe: safe.address,
      actions: [
        create("roles", SP(1)),
        { route: "pspGrantRole", body: { roleType: "SETTLEMENT_ADMIN", account: e.who.alice.address } },
      ],
    });
    const d = expectMissingRole(res, { contract: "pspVault", role: "DEFAULT_ADMIN_ROLE", account: safe.address });
    assert.deepEqual([d.action, d.route], [1, "pspGrantRole"]);
  });

  it("batch_actionCarryingASignerOrNonce_is400_namingTheField", async () => {
    for (const field of ["from", "nonce"]) {
      const action = minter("x", e.who.alice.address, 1n);
      const res = await batch({
        safe: safe.address,
        actions: [{ ...action, body: { ...action.body, [field]: field === "from" ? e.who.brand.address : 0 } }],
      });
      const d = expectError(res, 400, "INVALID_INPUT");
      assert.equal(d.issues[0].field, "body.actions.0.body");
      assert.match(d.issues[0].message, new RegExp(`"${field}"`));
    }
  });

  it("batch_actionWithABadField_is400_namingTheActionsField", async () => {
    const action = minter("x", e.who.alice.address, 1n);
    const res = await batch({ safe: safe.address, actions: [{ ...action, body: { ...action.body, limit: "-1" } }] });
    const d = expectError(res, 400, "INVALID_INPUT");
    assert.equal(d.issues[0].field, "body.actions.0.body.limit");
  });

  it("batch_throughAContractThatIsNotMultiSendCallOnly_is404NotMultiSendCallOnly", async () => {
    const res = await batch({ safe: safe.address, actions: [create("y", 1n)], multiSendCallOnly: e.record.pspVault });
    const d = expectError(res, 404, "NOT_FOUND");
    assert.deepEqual(d, { reason: "NOT_MULTISEND_CALL_ONLY", address: e.record.pspVault });
  });

  it("batch_forAnAccountThatIsNotASafe_is404NotASafe", async () => {
    const res = await batch({ safe: e.who.brand.address, actions: [create("z", 1n)] });
    assert.equal(expectError(res, 404, "NOT_FOUND").reason, "NOT_A_SAFE");
  });

  it("batch_withoutAnApiKey_is401", async () => {
    const route = "/api/v1/safe/batch";
    const res = await e.api.call("POST", route, { safe: safe.address, actions: [create("z", 1n)] }, {});
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("proposal_delegatecallIntoAnythingButMultiSendCallOnly_is404_theAttackIsRefused", async () => {
    // A delegatecall into the PSPVault (or any contract) would run its code on the Safe's storage.
    const tx = { ...plainSafeTx(e.record.pspVault, "0x", await nonceOf()), operation: 1 as const };
    const res = await e.call("safeProposalCreate", { body: { chainId: 31337, safe: safe.address, tx } });
    assert.equal(expectError(res, 404, "NOT_FOUND").reason, "NOT_MULTISEND_CALL_ONLY");
  });

  it("batchProposal_ofAnotherTenant_is404_andANonOwnersSignature_is403", async () => {
    const built = expectOk("safeBatch", await batch({ safe: safe.address, actions: [create("tenant", SP(1))] }));
    const pid = await proposer.proposeSigned(built.safe.tx);
    const path = `/api/v1/safe/proposals/${pid}`;
    expectError(await e.api.call("GET", path, undefined, otherAuth), 404, "NOT_FOUND");
    const exec = await e.api.call("POST", `${path}/execute`, { from: relayer.address }, otherAuth);
    expectError(exec, 404, "NOT_FOUND");
    const stranger = devWallet(5, e.node.provider);
    const signature = await signProposal(stranger, { chainId: "31337", safe: safe.address, tx: built.safe.tx });
    const res = await e.call("safeProposalSign", { params: { proposalId: pid }, body: { signature } });
    const d = expectError(res, 403, "FORBIDDEN");
    assert.deepEqual([d.reason, d.signer], ["NOT_AN_OWNER", stranger.address]);
  });
});
