import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, Status } from "./factoryFixture.js";

const unauthorized = "AccessControlUnauthorizedAccount";

/** Two programs (the second is another tenant); alice has request 1 pending on the first; carol manages it. */
async function twoPrograms() {
  const p = await deployProgram();
  const other = await deployProgram();
  await mintSp(p, p.alice, USDC(100));
  await allowRedeemer(p, p.alice, SP(100));
  await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(100), false);
  // A manager who is not the admin: MANAGER_ROLE alone is what counts.
  await p.factory.connect(p.admin).grantRole(ROLES.MANAGER, p.carol);
  // dave manages the other program only.
  await other.factory.connect(other.admin).grantRole(ROLES.MANAGER, p.dave);
  return { p, other };
}

// EXECUTOR_ROLE follows the program's redemption desk policy (docs/deployment.md#redemption-desk):
// its managers grant and revoke it, nobody else does.
describe("Factory: EXECUTOR_ROLE is administered by MANAGER_ROLE", () => {
  it("getRoleAdmin_EXECUTOR_isMANAGER", async () => {
    const { p } = await networkHelpers.loadFixture(twoPrograms);
    expect(await p.factory.getRoleAdmin(ROLES.EXECUTOR)).to.equal(ROLES.MANAGER);
    // Every other Factory role stays with DEFAULT_ADMIN_ROLE.
    for (const r of [ROLES.MANAGER, ROLES.PAUSER])
      expect(await p.factory.getRoleAdmin(r)).to.equal(ROLES.DEFAULT_ADMIN);
  });

  it("aManager_revokesTheExecutor_whoCanNoLongerFinalize_thenGrantsItAgain_andItFinalizes", async () => {
    const { p } = await networkHelpers.loadFixture(twoPrograms);
    await expect(p.factory.connect(p.carol).revokeRole(ROLES.EXECUTOR, p.executor))
      .to.emit(p.factory, "RoleRevoked")
      .withArgs(ROLES.EXECUTOR, p.executor.address, p.carol.address);
    expect(await p.factory.hasRole(ROLES.EXECUTOR, p.executor)).to.equal(false);
    await expect(p.factory.connect(p.executor).finalizeRedeemBatch([1n]))
      .to.be.revertedWithCustomError(p.factory, unauthorized)
      .withArgs(p.executor.address, ROLES.EXECUTOR);

    await expect(p.factory.connect(p.carol).grantRole(ROLES.EXECUTOR, p.executor))
      .to.emit(p.factory, "RoleGranted")
      .withArgs(ROLES.EXECUTOR, p.executor.address, p.carol.address);
    await expect(p.factory.connect(p.executor).finalizeRedeemBatch([1n]))
      .to.emit(p.factory, "RedeemFinalized")
      .withArgs(1n, p.executor.address, SP(100), 0, false);
    expect((await p.factory.getRedeemRequest(1n)).status).to.equal(Status.Finalized);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(100));
  });

  it("attack_theExecutor_anOutsider_aPauser_orTheAdminWithoutMANAGER_cannotGrantOrRevokeEXECUTOR", async () => {
    const { p } = await networkHelpers.loadFixture(twoPrograms);
    await p.factory.connect(p.admin).grantRole(ROLES.PAUSER, p.bob);
    // The admin gives MANAGER_ROLE up: DEFAULT_ADMIN_ROLE alone no longer administers EXECUTOR_ROLE.
    await p.factory.connect(p.admin).renounceRole(ROLES.MANAGER, p.admin);
    for (const s of [p.executor, p.outsider, p.bob, p.admin]) {
      await expect(p.factory.connect(s).grantRole(ROLES.EXECUTOR, s))
        .to.be.revertedWithCustomError(p.factory, unauthorized)
        .withArgs(s.address, ROLES.MANAGER);
      await expect(p.factory.connect(s).revokeRole(ROLES.EXECUTOR, p.executor))
        .to.be.revertedWithCustomError(p.factory, unauthorized)
        .withArgs(s.address, ROLES.MANAGER);
    }
    expect(await p.factory.hasRole(ROLES.EXECUTOR, p.executor)).to.equal(true);
    expect(await p.factory.hasRole(ROLES.EXECUTOR, p.outsider)).to.equal(false);
  });

  it("attack_aManagerOfAnotherProgram_cannotGrantOrRevokeEXECUTOR_here", async () => {
    const { p, other } = await networkHelpers.loadFixture(twoPrograms);
    expect(await other.factory.hasRole(ROLES.MANAGER, p.dave)).to.equal(true);
    await expect(p.factory.connect(p.dave).grantRole(ROLES.EXECUTOR, p.dave))
      .to.be.revertedWithCustomError(p.factory, unauthorized)
      .withArgs(p.dave.address, ROLES.MANAGER);
    await expect(p.factory.connect(p.dave).revokeRole(ROLES.EXECUTOR, p.executor))
      .to.be.revertedWithCustomError(p.factory, unauthorized)
      .withArgs(p.dave.address, ROLES.MANAGER);
    expect(await p.factory.hasRole(ROLES.EXECUTOR, p.executor)).to.equal(true);
  });

  it("aManager_cannotUseEXECUTORToReachAnyOtherRole", async () => {
    const { p } = await networkHelpers.loadFixture(twoPrograms);
    for (const r of [ROLES.MANAGER, ROLES.PAUSER]) {
      await expect(p.factory.connect(p.carol).grantRole(r, p.carol))
        .to.be.revertedWithCustomError(p.factory, unauthorized)
        .withArgs(p.carol.address, ROLES.DEFAULT_ADMIN);
    }
    // DEFAULT_ADMIN_ROLE moves only by the two-step transfer, whoever asks.
    await expect(p.factory.connect(p.carol).grantRole(ROLES.DEFAULT_ADMIN, p.carol)).to.be.revertedWithCustomError(
      p.factory,
      "AccessControlEnforcedDefaultAdminRules",
    );
    expect(await p.factory.hasRole(ROLES.MANAGER, p.carol)).to.equal(true);
    expect(await p.factory.hasRole(ROLES.PAUSER, p.carol)).to.equal(false);
  });
});
