import { expect } from "chai";
import { ROLES } from "../../helpers/programFixture.js";
import { expectEachRefused, loadTarget, nonAdmins, type Target } from "../targets.js";

/**
 * Every role a contract defines is administered by DEFAULT_ADMIN_ROLE alone: the admin grants
 * and revokes it, any other account (role holders included) is refused with the exact
 * AccessControlUnauthorizedAccount(caller, DEFAULT_ADMIN_ROLE).
 */
export function shouldLetOnlyTheAdminManageRoles(t: Target) {
  for (const [name, role] of Object.entries(t.roles)) {
    describe(`${name}_ROLE administration`, () => {
      it(`getRoleAdmin_${name}_isDefaultAdmin`, async () => {
        const { c } = await loadTarget(t);
        expect(await c.getRoleAdmin(role)).to.equal(ROLES.DEFAULT_ADMIN);
      });

      it(`grantRole_${name}_byAdmin_emitsRoleGranted`, async () => {
        const { p, c } = await loadTarget(t);
        await expect(c.connect(p.admin).grantRole(role, p.alice))
          .to.emit(c, "RoleGranted")
          .withArgs(role, p.alice.address, p.admin.address);
        expect(await c.hasRole(role, p.alice)).to.equal(true);
        // Granting again changes nothing and emits nothing.
        await expect(c.connect(p.admin).grantRole(role, p.alice)).not.to.emit(c, "RoleGranted");
      });

      it(`revokeRole_${name}_byAdmin_emitsRoleRevoked`, async () => {
        const { p, c } = await loadTarget(t);
        await c.connect(p.admin).grantRole(role, p.alice);
        await expect(c.connect(p.admin).revokeRole(role, p.alice))
          .to.emit(c, "RoleRevoked")
          .withArgs(role, p.alice.address, p.admin.address);
        expect(await c.hasRole(role, p.alice)).to.equal(false);
      });

      it(`grantRole_${name}_revertsWhen_callerIsNotAdmin`, async () => {
        const { p, c } = await loadTarget(t);
        // A holder of the role itself may not hand it on either.
        await c.connect(p.admin).grantRole(role, p.carol);
        await expectEachRefused(c, nonAdmins(p), ROLES.DEFAULT_ADMIN, (s) => c.connect(s).grantRole(role, s));
      });

      it(`revokeRole_${name}_revertsWhen_callerIsNotAdmin`, async () => {
        const { p, c } = await loadTarget(t);
        await c.connect(p.admin).grantRole(role, p.carol);
        await expectEachRefused(c, nonAdmins(p), ROLES.DEFAULT_ADMIN, (s) => c.connect(s).revokeRole(role, p.carol));
        expect(await c.hasRole(role, p.carol)).to.equal(true);
      });

      it(`renounceRole_${name}_onlyForOneself`, async () => {
        const { p, c } = await loadTarget(t);
        await c.connect(p.admin).grantRole(role, p.carol);
        await expect(c.connect(p.outsider).renounceRole(role, p.carol)).to.be.revertedWithCustomError(
          c,
          "AccessControlBadConfirmation",
        );
        await expect(c.connect(p.carol).renounceRole(role, p.carol))
          .to.emit(c, "RoleRevoked")
          .withArgs(role, p.carol.address, p.carol.address);
        expect(await c.hasRole(role, p.carol)).to.equal(false);
      });
    });
  }
}
