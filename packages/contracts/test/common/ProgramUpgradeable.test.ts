import { shouldEnforceDefaultAdminRules } from "./behaviours/adminRules.js";
import { shouldInitializeOnlyOnce } from "./behaviours/initializable.js";
import { shouldFollowThePauseRules } from "./behaviours/pausable.js";
import { shouldLetOnlyTheAdminManageRoles } from "./behaviours/roles.js";
import { TARGETS } from "./targets.js";

// The shared base (ProgramUpgradeable) gives all five contracts the same admin, role, pause
// and initializer rules: run the same suites against each of them.
for (const t of TARGETS) {
  describe(`${t.name} (ProgramUpgradeable behaviour)`, () => {
    shouldEnforceDefaultAdminRules(t);
    shouldLetOnlyTheAdminManageRoles(t);
    shouldFollowThePauseRules(t);
    shouldInitializeOnlyOnce(t);
  });
}
