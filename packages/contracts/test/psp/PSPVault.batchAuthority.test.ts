import { expect } from "chai";
import { networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { BUDGET, CAMPAIGN_A, deployPspWithCampaign, expectAccounting, expectCampaignA, Status } from "./pspFixture.js";

const { loadFixture } = networkHelpers;
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The issuance authority of mintBatch beyond its own suite (docs/rules.md#batch-forms): a
 * campaign admin who is not the creator, a revoked creator or issuing admin, a delegated
 * minter's limit consumed across batches, the budget binding a minter whose limit is higher, and
 * settleBatch refusing every row when one is bad. CAMPAIGN_A (creator, BUDGET), dave a campaign
 * admin added by the creator, `minter` a delegated minter limited to 300 SP.
 */
async function authorityFixture() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, true);
  await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(300), true);
  return p;
}

describe("PSPVault: batch authority paths (mintBatch, settleBatch)", () => {
  it("mintBatch_byACampaignAdminWhoIsNotTheCreator_issues_andOnceRemoved_isMinterNotAuthorized", async () => {
    const p = await loadFixture(authorityFixture);
    await expect(p.psp.connect(p.dave).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(1), SP(2)], "by admin"))
      .to.emit(p.psp, "PSPMinted")
      .withArgs(CAMPAIGN_A, p.dave, p.carol, SP(2), "by admin");
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(1));
    await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.dave, false);
    await expect(p.psp.connect(p.dave).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
      .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
      .withArgs(CAMPAIGN_A, p.dave);
  });

  it("mintBatch_byARevokedCreator_orAnIssuingAdminWhoseRoleWasRevoked_isMinterNotAuthorized", async () => {
    const p = await loadFixture(authorityFixture);
    await p.psp.connect(p.manager).revokeCreator(CAMPAIGN_A);
    await expect(p.psp.connect(p.creator).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
      .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
      .withArgs(CAMPAIGN_A, p.creator);
    await p.psp.connect(p.issuer).mintBatch(CAMPAIGN_A, [p.alice], [1n], "");
    await p.psp.revokeRole(ROLES.ISSUING_ADMIN, p.issuer);
    await expect(p.psp.connect(p.issuer).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
      .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
      .withArgs(CAMPAIGN_A, p.issuer);
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(1n);
  });

  it("mintBatch_byADelegatedMinter_consumesItsLimitAcrossBatches_toTheExactWei", async () => {
    const p = await loadFixture(authorityFixture);
    await p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(100), SP(99)], "");
    const left = SP(101);
    await expect(p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(100), SP(1) + 1n], ""))
      .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
      .withArgs(CAMPAIGN_A, p.minter, SP(300), SP(199), left + 1n);
    await p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(100), SP(1)], "");
    expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(300), SP(300), true]);
    await expect(p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.dave], [1n], ""))
      .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
      .withArgs(CAMPAIGN_A, p.minter, SP(300), SP(300), 1n);
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(200));
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.dave)).to.equal(SP(1));
    await expectCampaignA(p, { budget: BUDGET, available: SP(700), outstanding: SP(300), status: Status.Active });
    await expectAccounting(p, [CAMPAIGN_A]);
  });

  it("mintBatch_byADelegatedMinterWithALimitAboveTheBudget_isBoundByTheBudgetAtTheExactWei", async () => {
    const p = await loadFixture(authorityFixture);
    await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, BUDGET * 2n, true);
    await expect(p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(500), SP(500) + 1n], ""))
      .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
      .withArgs(CAMPAIGN_A, BUDGET, BUDGET + 1n);
    // The refused batch consumed none of the limit.
    expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([BUDGET * 2n, 0n, true]);
    await p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(500), SP(500)], "");
    await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: BUDGET, status: Status.Active });
    await expectAccounting(p, [CAMPAIGN_A]);
  });

  it("settleBatch_withOneZeroAmountRow_orOneShortHolder_isRefusedWhole_andMovesNothing", async () => {
    const p = await loadFixture(authorityFixture);
    await p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(10), SP(10)], "");
    const spBefore = await p.points.balanceOf(p.bob);
    await expect(
      p.psp.connect(p.settler).settleBatch([p.alice, p.carol], [p.bob, p.bob], [SP(5), 0n], CAMPAIGN_A, ""),
    ).to.be.revertedWithCustomError(p.psp, "ZeroAmount");
    // The zero address holds nothing: the last row's holder is short, so no row settles.
    await expect(p.psp.connect(p.settler).settleBatch([p.alice, ZERO], [p.bob, p.bob], [SP(5), SP(1)], CAMPAIGN_A, ""))
      .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
      .withArgs(CAMPAIGN_A, ZERO, 0n, SP(1));
    expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(10));
    expect(await p.points.balanceOf(p.bob)).to.equal(spBefore);
    await expectCampaignA(p, { budget: BUDGET, available: SP(980), outstanding: SP(20), status: Status.Active });
  });
});
