import { expect } from "chai";
import { ROLES } from "../../helpers/programFixture.js";
import { expectEachRefused, loadTarget, nonAdmins, type Target } from "../targets.js";

/**
 * docs/rules.md#every-contract: PAUSER_ROLE pauses, DEFAULT_ADMIN_ROLE unpauses, so a compromised pauser can stop
 * a program but never restart it. (Which operations a pause blocks is tested per contract.)
 */
export function shouldFollowThePauseRules(t: Target) {
  describe("contract pause", () => {
    it("paused_isFalse_atBirth_andAdminIsPauser", async () => {
      const { p, c } = await loadTarget(t);
      expect(await c.paused()).to.equal(false);
      expect(await c.hasRole(ROLES.PAUSER, p.admin)).to.equal(true);
    });

    it("pause_byPauser_emitsPaused", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).grantRole(ROLES.PAUSER, p.alice);
      await expect(c.connect(p.alice).pause()).to.emit(c, "Paused").withArgs(p.alice.address);
      expect(await c.paused()).to.equal(true);
    });

    it("pause_revertsWhen_callerIsNotPauser", async () => {
      const { p, c } = await loadTarget(t);
      await expectEachRefused(c, nonAdmins(p), ROLES.PAUSER, (s) => c.connect(s).pause());
    });

    it("pause_revertsWhen_alreadyPaused", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).pause();
      await expect(c.connect(p.admin).pause()).to.be.revertedWithCustomError(c, "EnforcedPause");
    });

    it("unpause_byAdmin_emitsUnpaused", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).pause();
      await expect(c.connect(p.admin).unpause()).to.emit(c, "Unpaused").withArgs(p.admin.address);
      expect(await c.paused()).to.equal(false);
    });

    it("unpause_revertsWhen_callerIsPauserButNotAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).grantRole(ROLES.PAUSER, p.alice);
      await c.connect(p.alice).pause();
      await expect(c.connect(p.alice).unpause())
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(p.alice.address, ROLES.DEFAULT_ADMIN);
      expect(await c.paused()).to.equal(true);
    });

    it("unpause_revertsWhen_callerIsNotAdmin", async () => {
      const { p, c } = await loadTarget(t);
      await c.connect(p.admin).pause();
      await expectEachRefused(c, nonAdmins(p), ROLES.DEFAULT_ADMIN, (s) => c.connect(s).unpause());
    });

    it("unpause_revertsWhen_notPaused", async () => {
      const { p, c } = await loadTarget(t);
      await expect(c.connect(p.admin).unpause()).to.be.revertedWithCustomError(c, "ExpectedPause");
    });
  });
}
