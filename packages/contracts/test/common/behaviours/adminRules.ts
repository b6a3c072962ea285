import { expect } from "chai";
import { ADMIN_DELAY, ethers, networkHelpers, ROLES } from "../../helpers/programFixture.js";
import { expectEachRefused, loadTarget, type Target } from "../targets.js";

const { time } = networkHelpers;

/**
 * docs/rules.md#every-contract: one DEFAULT_ADMIN_ROLE holder, moved only by the
 * two-step delayed transfer of AccessControlDefaultAdminRules, never lost by accident.
 */
export function shouldEnforceDefaultAdminRules(t: Target) {
  describe("single admin, two-step delayed transfer", () => {
    it("defaultAdmin_isTheBrandWallet_withTheConfiguredDelay", async () => {
      const { p, c } = await loadTarget(t);
      expect(await c.defaultAdmin()).to.equal(p.admin.address);
      expect(await c.owner()).to.equal(p.admin.address);
      expect(await c.defaultAdminDelay()).to.equal(ADMIN_DELAY);
      expect(await c.hasRole(ROLES.DEFAULT_ADMIN, p.admin)).to.equal(true);
      for (const s of [p.executor, p.alice, p.outsider]) {
        expect(await c.hasRole(ROLES.DEFAULT_ADMIN, s)).to.equal(false);
      }
    });

    it("grantRole_revertsWhen_roleIsDefaultAdmin_evenForTheAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await expect(c.connect(p.admin).grantRole(ROLES.DEFAULT_ADMIN, p.alice)).to.be.revertedWithCustomError(
        c,
        "AccessControlEnforcedDefaultAdminRules",
      );
      await expect(c.connect(p.outsider).grantRole(ROLES.DEFAULT_ADMIN, p.outsider)).to.be.revertedWithCustomError(
        c,
        "AccessControlEnforcedDefaultAdminRules",
      );
    });

    it("revokeRole_revertsWhen_roleIsDefaultAdmin_soTheLastAdminStays", async () => {
      const { p, c } = await loadTarget(t);
      await expect(c.connect(p.admin).revokeRole(ROLES.DEFAULT_ADMIN, p.admin)).to.be.revertedWithCustomError(
        c,
        "AccessControlEnforcedDefaultAdminRules",
      );
      expect(await c.defaultAdmin()).to.equal(p.admin.address);
    });

    it("renounceRole_revertsWhen_adminRenouncesWithoutScheduledTransfer", async () => {
      const { p, c } = await loadTarget(t);
      await expect(c.connect(p.admin).renounceRole(ROLES.DEFAULT_ADMIN, p.admin))
        .to.be.revertedWithCustomError(c, "AccessControlEnforcedDefaultAdminDelay")
        .withArgs(0);
      expect(await c.hasRole(ROLES.DEFAULT_ADMIN, p.admin)).to.equal(true);
    });

    it("renounceRole_succeeds_onlyAfterTwoStepRenounceAndDelay", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).beginDefaultAdminTransfer(ethers.ZeroAddress);
      const [, schedule] = await c.pendingDefaultAdmin();
      await expect(c.connect(p.admin).renounceRole(ROLES.DEFAULT_ADMIN, p.admin))
        .to.be.revertedWithCustomError(c, "AccessControlEnforcedDefaultAdminDelay")
        .withArgs(schedule);
      await time.increaseTo(schedule + 1n);
      await expect(c.connect(p.admin).renounceRole(ROLES.DEFAULT_ADMIN, p.admin))
        .to.emit(c, "RoleRevoked")
        .withArgs(ROLES.DEFAULT_ADMIN, p.admin.address, p.admin.address);
      expect(await c.defaultAdmin()).to.equal(ethers.ZeroAddress);
    });

    it("beginDefaultAdminTransfer_schedulesNewAdmin_afterTheDelay", async () => {
      const { p, c } = await loadTarget(t);
      const tx = await c.connect(p.admin).beginDefaultAdminTransfer(p.alice);
      const schedule = BigInt((await tx.getBlock())!.timestamp) + BigInt(ADMIN_DELAY);
      await expect(tx).to.emit(c, "DefaultAdminTransferScheduled").withArgs(p.alice.address, schedule);
      expect(await c.pendingDefaultAdmin()).to.deep.equal([p.alice.address, schedule]);
    });

    it("beginDefaultAdminTransfer_revertsWhen_callerIsNotAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await expectEachRefused(c, [p.executor, p.alice, p.outsider], ROLES.DEFAULT_ADMIN, (s) =>
        c.connect(s).beginDefaultAdminTransfer(s),
      );
    });

    it("acceptDefaultAdminTransfer_revertsWhen_delayNotPassed_evenAtTheScheduleSecond", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).beginDefaultAdminTransfer(p.alice);
      const [, schedule] = await c.pendingDefaultAdmin();
      await expect(c.connect(p.alice).acceptDefaultAdminTransfer())
        .to.be.revertedWithCustomError(c, "AccessControlEnforcedDefaultAdminDelay")
        .withArgs(schedule);
      // The schedule must have strictly passed.
      await time.setNextBlockTimestamp(schedule);
      await expect(c.connect(p.alice).acceptDefaultAdminTransfer())
        .to.be.revertedWithCustomError(c, "AccessControlEnforcedDefaultAdminDelay")
        .withArgs(schedule);
    });

    it("acceptDefaultAdminTransfer_revertsWhen_callerIsNotThePendingAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).beginDefaultAdminTransfer(p.alice);
      const [, schedule] = await c.pendingDefaultAdmin();
      await time.increaseTo(schedule + 1n);
      for (const s of [p.admin, p.bob, p.outsider]) {
        await expect(c.connect(s).acceptDefaultAdminTransfer())
          .to.be.revertedWithCustomError(c, "AccessControlInvalidDefaultAdmin")
          .withArgs(s.address);
      }
    });

    it("acceptDefaultAdminTransfer_movesTheRole_afterTheDelay", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).beginDefaultAdminTransfer(p.alice);
      const [, schedule] = await c.pendingDefaultAdmin();
      await time.increaseTo(schedule + 1n);
      await expect(c.connect(p.alice).acceptDefaultAdminTransfer())
        .to.emit(c, "RoleRevoked")
        .withArgs(ROLES.DEFAULT_ADMIN, p.admin.address, p.alice.address)
        .and.to.emit(c, "RoleGranted")
        .withArgs(ROLES.DEFAULT_ADMIN, p.alice.address, p.alice.address);
      expect(await c.defaultAdmin()).to.equal(p.alice.address);
      expect(await c.hasRole(ROLES.DEFAULT_ADMIN, p.admin)).to.equal(false);
      expect(await c.pendingDefaultAdmin()).to.deep.equal([ethers.ZeroAddress, 0n]);
      // The old admin lost every admin power: it can no longer unpause.
      await c.connect(p.admin).pause();
      await expect(c.connect(p.admin).unpause())
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(p.admin.address, ROLES.DEFAULT_ADMIN);
      await expect(c.connect(p.alice).unpause()).to.emit(c, "Unpaused").withArgs(p.alice.address);
    });

    it("cancelDefaultAdminTransfer_clearsThePendingAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).beginDefaultAdminTransfer(p.alice);
      await expect(c.connect(p.alice).cancelDefaultAdminTransfer())
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(p.alice.address, ROLES.DEFAULT_ADMIN);
      await expect(c.connect(p.admin).cancelDefaultAdminTransfer()).to.emit(c, "DefaultAdminTransferCanceled");
      expect(await c.pendingDefaultAdmin()).to.deep.equal([ethers.ZeroAddress, 0n]);
      await time.increase(ADMIN_DELAY + 1);
      await expect(c.connect(p.alice).acceptDefaultAdminTransfer())
        .to.be.revertedWithCustomError(c, "AccessControlInvalidDefaultAdmin")
        .withArgs(p.alice.address);
    });

    it("changeDefaultAdminDelay_revertsWhen_callerIsNotAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await expect(c.connect(p.outsider).changeDefaultAdminDelay(0))
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(p.outsider.address, ROLES.DEFAULT_ADMIN);
    });
  });
}
