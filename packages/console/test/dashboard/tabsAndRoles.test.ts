import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ABIS } from "@points/contracts/program/abi";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const keysPath = "../../src/components/tabKeys.ts";
const rolesPath = "../../src/dashboard/contractRoles.ts";
const { nextTabIndex, tabFromUrl } = (await import(keysPath)) as {
  nextTabIndex(key: string, current: number, count: number): number | null;
  tabFromUrl(value: string | null, ids: readonly string[]): string;
};
const { contractRoles, roleAfterContractChange } = (await import(rolesPath)) as {
  contractRoles(contract: string): string[];
  roleAfterContractChange(contract: string, role: string): string;
};

describe("tabs follow the WAI-ARIA keys and the URL", () => {
  it("arrowsWrapRound_homeAndEndGoToTheEnds_otherKeysAreNotTheTabs", () => {
    assert.equal(nextTabIndex("ArrowRight", 0, 4), 1);
    assert.equal(nextTabIndex("ArrowRight", 3, 4), 0);
    assert.equal(nextTabIndex("ArrowLeft", 0, 4), 3);
    assert.equal(nextTabIndex("ArrowDown", 1, 4), 2);
    assert.equal(nextTabIndex("ArrowUp", 1, 4), 0);
    assert.equal(nextTabIndex("Home", 2, 4), 0);
    assert.equal(nextTabIndex("End", 0, 4), 3);
    assert.equal(nextTabIndex("Tab", 0, 4), null);
    assert.equal(nextTabIndex("Enter", 0, 4), null);
    assert.equal(nextTabIndex("ArrowRight", 0, 0), null);
  });

  it("theUrlsTab_orTheFirstWhenItNamesNoneOrAnUnknownOne", () => {
    const ids = ["psp", "allowlists", "minters", "admin"];
    assert.equal(tabFromUrl("minters", ids), "minters");
    assert.equal(tabFromUrl(null, ids), "psp");
    assert.equal(tabFromUrl("nope", ids), "psp");
    assert.equal(tabFromUrl("Minters", ids), "psp", "exact names only");
  });
});

describe("the grant form offers the roles the chosen contract's ABI defines", () => {
  const abiRoles = (abi: readonly { type: string; name?: string; inputs?: readonly unknown[] }[]) =>
    abi.filter((f) => f.type === "function" && f.name?.endsWith("_ROLE") && f.inputs?.length === 0).map((f) => f.name);

  it("eachContract_exactlyItsAbisRoleConstants_adminFirst", () => {
    for (const c of ["points", "factory", "collateralVault", "pspVault", "oracle"] as const) {
      const fromAbi = abiRoles(ABIS[c] as never);
      assert.deepEqual(contractRoles(c).slice().sort(), [...new Set(fromAbi)].sort(), c);
      assert.equal(contractRoles(c)[0], "DEFAULT_ADMIN_ROLE", c);
    }
    assert.deepEqual(contractRoles("points"), ["DEFAULT_ADMIN_ROLE", "MINTER_ROLE", "PAUSER_ROLE"]);
    assert.deepEqual(contractRoles("oracle"), ["DEFAULT_ADMIN_ROLE", "PAUSER_ROLE"]);
    assert.equal(contractRoles("points").includes("MANAGER_ROLE"), false);
  });

  it("changingTheContract_keepsARoleItHas_elseItsFirstNonAdminRole", () => {
    assert.equal(roleAfterContractChange("pspVault", "MANAGER_ROLE"), "MANAGER_ROLE");
    assert.equal(roleAfterContractChange("points", "MANAGER_ROLE"), "MINTER_ROLE");
    assert.equal(roleAfterContractChange("oracle", "ISSUING_ADMIN_ROLE"), "PAUSER_ROLE");
    assert.equal(roleAfterContractChange("oracle", "DEFAULT_ADMIN_ROLE"), "DEFAULT_ADMIN_ROLE");
  });
});
