import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { BUDGET, CAMPAIGN_A, deployPspWithCampaign, expectAccounting, expectCampaignA, Status } from "./pspFixture.js";
import type { PSPVaultV2Mock } from "../../types/ethers-contracts/index.js";

const { loadFixture } = networkHelpers;

/** CAMPAIGN_A with pSP issued by a delegated minter, so every ledger mapping holds data. */
async function withState() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
  await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(60), "");
  await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true);
  const v2 = await ethers.deployContract("PSPVaultV2Mock");
  return { ...p, v2 };
}

describe("PSPVault: upgrade (UUPS, DEFAULT_ADMIN_ROLE only)", () => {
  it("upgradeToAndCall_byAdmin_keepsCampaignsBalancesMintersAndWhitelists", async () => {
    const p = await loadFixture(withState);
    await expect(p.psp.connect(p.admin).upgradeToAndCall(p.v2, "0x")).to.emit(p.psp, "Upgraded").withArgs(p.v2);
    const upgraded = (await ethers.getContractAt(
      "PSPVaultV2Mock",
      await p.psp.getAddress(),
    )) as unknown as PSPVaultV2Mock;
    expect(await upgraded.version()).to.equal("2");
    await expectCampaignA(p, {
      budget: BUDGET,
      available: BUDGET - SP(60),
      outstanding: SP(60),
      status: Status.Active,
    });
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(60));
    expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(60), true]);
    expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.dave)).to.equal(true);
    expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, p.bob)).to.equal(true);
    expect(await p.psp.isTransferWhitelisted(CAMPAIGN_A, p.carol)).to.equal(true);
    expect(await p.psp.hasRole(ROLES.SETTLEMENT_ADMIN, p.settler)).to.equal(true);
    await expectAccounting(p, [CAMPAIGN_A]);
    // The ledger keeps working on the new implementation.
    await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(40), "");
    expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(100), SP(100), true]);
  });

  it("upgradeToAndCall_revertsWhen_callerIsNotDefaultAdmin_evenWithEveryOtherVaultRole", async () => {
    const p = await loadFixture(withState);
    for (const who of [p.manager, p.creator, p.issuer, p.settler, p.mover, p.pauser, p.outsider]) {
      await expect(p.psp.connect(who).upgradeToAndCall(p.v2, "0x"))
        .to.be.revertedWithCustomError(p.psp, "AccessControlUnauthorizedAccount")
        .withArgs(who, ROLES.DEFAULT_ADMIN);
    }
  });
});
