import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Contract, Wallet, id, parseUnits } from "ethers";
import { devSafe, devWallet } from "@points/testkit";
import { issuerSetupActions, type PreparedTx } from "../src/index.js";
import { startLive, type Live } from "./helpers/live.js";

const SP = (n: string) => parseUnits(n, 18);
const USDC = (n: string) => parseUnits(n, 6);
const ROLES = ["function hasRole(bytes32, address) view returns (bool)", "function grantRole(bytes32, address)"];

// A brand's first pSP setup through one helper: step by step from its wallet, or one Safe batch.
describe("client.setup.issuer / issuerSafe (live API)", () => {
  let live: Live;
  before(async () => {
    live = await startLive();
  });
  after(() => live?.stop());

  it("actions_areTheBuildRoutesInOrder_allowlistsDepositCampaignMinterSettler", () => {
    const a = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    assert.deepEqual(
      issuerSetupActions({
        allowlists: { mint: [a], transfer: [a] },
        deposit: { asset: a, amount: 5n },
        campaign: { campaignId: "c", spBudget: 7n },
        minter: { campaignId: "c", minter: a, limit: 3n },
        settler: a,
      }),
      [
        { route: "whitelistMintAdd", body: { account: a } },
        { route: "whitelistTransferAdd", body: { account: a } },
        { route: "buildMint", body: { input: { asset: a, amount: "5" } } },
        {
          route: "pspCreateCampaign",
          body: { campaignId: "c", spBudget: "7", settlementDestinations: [], transferWhitelist: [], metadata: "" },
        },
        { route: "pspConfigureMinter", body: { campaignId: "c", minter: a, limit: "3", active: true } },
        { route: "pspGrantRole", body: { roleType: "SETTLEMENT_ADMIN", account: a } },
      ],
    );
  });

  it("issuer_fromAWallet_fundedByTheDevFaucet_setsEverythingUp_approvalsSentWhenAsked_andTheMinterThenIssues", async () => {
    const { client, actors } = live;
    const { brand, carol, bob } = actors;
    await (await client.dev.faucet({ asset: live.usdc, amount: USDC("100") }, { from: brand.address })).send(brand);
    const steps = await client.setup.issuer(
      {
        allowlists: { mint: [brand.address], transfer: [brand.address] },
        deposit: { asset: live.usdc, amount: USDC("100") },
        campaign: { campaignId: "setup", spBudget: SP("50") },
        minter: { campaignId: "setup", minter: carol.address, limit: SP("10") },
        settler: bob.address,
      },
      brand,
    );
    assert.deepEqual(
      steps.map((s) => [s.route, s.receipt.status]),
      [
        ["whitelistMintAdd", 1],
        ["whitelistTransferAdd", 1],
        ["buildMint", 1],
        ["pspCreateCampaign", 1],
        ["pspConfigureMinter", 1],
        ["pspGrantRole", 1],
      ],
    );
    assert.deepEqual(await client.factory.whitelistStatus(brand.address), {
      address: brand.address,
      mint: true,
      redeem: false,
      transfer: true,
    });
    assert.equal((await client.vault.getCampaign("setup")).budget, SP("50").toString());
    const minter = await client.vault.getMinterConfig("setup", carol.address);
    assert.deepEqual([minter.limit, minter.issued, minter.active], [SP("10").toString(), "0", true]);
    const vault = new Contract(live.program.pspVault, ROLES, live.node.provider);
    assert.equal(await vault.hasRole!(id("SETTLEMENT_ADMIN_ROLE"), bob.address), true);
    // The delegated minter issues within its limit.
    const mint: PreparedTx = await client.vault.mint("setup", actors.alice.address, SP("4"), "", {
      from: carol.address,
    });
    assert.equal((await mint.send(carol)).status, 1);
    assert.equal((await client.vault.balanceOf("setup", actors.alice.address)).balance, SP("4").toString());
  });

  it("issuerSafe_isOneSafeTransaction_signedByTwoOwners_thatSetsUpAllowlistsAndTheMinter", async () => {
    const { client, actors, node } = live;
    const p = node.provider;
    const safe = await devSafe(p);
    // The brand makes the Safe a manager of the program (test setup, not under test). Granting the
    // settlement role needs the PSPVault's admin, which moves only by the two-step handover: the
    // wallet test above covers that step.
    for (const [addr, role] of [
      [live.program.factory, id("MANAGER_ROLE")],
      [live.program.pspVault, id("MANAGER_ROLE")],
    ] as const) {
      const c = new Contract(addr, ROLES, actors.brand);
      await (await c.grantRole!(role, safe.address)).wait();
    }
    const [member, minter] = [0, 1].map(() => Wallet.createRandom().address);
    const batch = await client.setup.issuerSafe(
      {
        allowlists: { mint: [member], redeem: [member] },
        minter: { campaignId: "setup", minter, limit: SP("2") },
      },
      { safe: safe.address, multiSendCallOnly: safe.infra.multiSendCallOnly },
    );
    assert.deepEqual([batch.safe.tx.operation, batch.safe.tx.to], [1, safe.infra.multiSendCallOnly]);
    const draft = batch.safe.typedData;
    const sigs = await Promise.all(
      [0, 1].map((i) => safe.owners[i]!.signTypedData(draft.domain, draft.types, draft.message)),
    );
    const proposal = await client.safe.propose({
      chainId: 31337,
      safe: safe.address,
      tx: batch.safe.tx,
      signature: sigs[0],
    });
    await client.safe.sign(proposal.id, sigs[1]!);
    const relayer = devWallet(9, p);
    const run = await client.safe.execute(proposal.id, relayer.address);
    const before = await p.getBlockNumber();
    assert.equal((await (await relayer.sendTransaction({ to: run.to, data: run.data })).wait())!.status, 1);
    assert.equal(await p.getBlockNumber(), before + 1);
    assert.deepEqual(await client.factory.whitelistStatus(member), {
      address: member,
      mint: true,
      redeem: true,
      transfer: false,
    });
    const m = await client.vault.getMinterConfig("setup", minter);
    assert.deepEqual([m.limit, m.active], [SP("2").toString(), true]);
  });
});
