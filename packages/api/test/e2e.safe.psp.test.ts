import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, parseUnits, type Wallet } from "ethers";
import { devSafe, devWallet, fundedCampaign } from "@points/testkit";
import { expectOk, setupE2E, type E2E } from "./helpers/e2e.js";
import { safeProposer } from "./helpers/safe.js";

// pSP run by a Safe that is campaign admin and SETTLEMENT_ADMIN (docs/architecture.md#safe-multisig):
// the Safe configures a minter and a settlement destination through proposals, the minter issues
// pSP, the Safe settles it; each step checked on chain.
describe("e2e: a Safe configures a minter and settles pSP through proposals", () => {
  let e: E2E;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let relayer: Wallet;
  let proposeSigned: ReturnType<typeof safeProposer>["proposeSigned"];
  let execute: ReturnType<typeof safeProposer>["execute"];
  let campaignId: string;
  before(async () => {
    e = await setupE2E();
    safe = await devSafe(e.node.provider);
    relayer = devWallet(9, e.node.provider);
    ({ proposeSigned, execute } = safeProposer(e, safe, relayer));
    ({ campaignId } = await fundedCampaign(e.node.provider, e.record, e.usdc, "safe-run", 100n));
    const vault = e.c.pspVault.connect(e.who.brand);
    await (await vault.setCampaignAdmin(campaignId, safe.address, true)).wait();
    await (await vault.grantRole(id("SETTLEMENT_ADMIN_ROLE"), safe.address)).wait();
    await (await e.c.points.connect(e.who.brand).addToTransferWhitelist(e.who.carol.address)).wait();
  });
  after(() => e?.stop());

  /** Builds studio route `name` for the Safe, proposes it, collects two signatures, relays execTransaction. */
  const runThroughSafe = async (
    name: "pspConfigureMinter" | "pspUpdateSettlementWhitelist" | "pspSettle",
    body: object,
  ) => {
    const built = expectOk(name, await e.call(name, { body: { ...body, from: safe.address } }));
    const pid = await proposeSigned(built.safe!.tx);
    await e.send(relayer, expectOk("safeProposalExecute", await execute(pid)));
  };

  it("safe_configuresAMinter_theMinterIssuesPsp_andTheSafeSettlesIt_exactBalancesOnChain", async () => {
    const { alice, bob, carol } = e.who;
    const SP = (n: string) => parseUnits(n, 18);
    await runThroughSafe("pspConfigureMinter", {
      campaignId,
      minter: alice.address,
      limit: SP("10").toString(),
      active: true,
    });
    const config = await e.c.pspVault.getMinterConfig(campaignId, alice.address);
    assert.deepEqual([config.limit, config.active], [SP("10"), true]);
    await runThroughSafe("pspUpdateSettlementWhitelist", { campaignId, account: carol.address, allowed: true });

    const mint = expectOk(
      "pspMint",
      await e.call("pspMint", {
        body: { campaignId, to: bob.address, amount: SP("7").toString(), metadata: "", from: alice.address },
      }),
    );
    await e.send(alice, mint);
    assert.equal(await e.c.pspVault.balanceOf(campaignId, bob.address), SP("7"));

    const before = await e.c.points.balanceOf(carol.address);
    await runThroughSafe("pspSettle", {
      holder: bob.address,
      receiver: carol.address,
      amount: SP("4").toString(),
      campaignId,
      metadata: "",
    });
    assert.equal(await e.c.pspVault.balanceOf(campaignId, bob.address), SP("3"));
    assert.equal((await e.c.points.balanceOf(carol.address)) - before, SP("4"));
  });
});
