import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id, ZeroHash } from "ethers";
import { expectError, expectMissingRole, expectRevert, setupE2E, type E2E } from "./helpers/e2e.js";

// Role management and freeze, on a program with an Oracle so that every
// pausable contract is there.
describe("e2e: role grant/revoke and freeze, signed and broadcast", () => {
  let e: E2E;
  before(async () => {
    e = await setupE2E({ withOracle: true });
  });
  after(() => e?.stop());

  type ProgramContract = Exclude<keyof E2E["c"], "usdc">;
  const roleBody = (contract: string, role: string, account: string, key: string) => ({
    body: { input: { contract, role, account }, key },
  });

  describe("PUT /api/v1/roles/grant and DELETE /api/v1/roles/revoke", () => {
    it("grant_byTheAdmin_givesTheRole_andRevoke_takesItBack", async () => {
      const { brand, alice } = e.who;
      const grant = await e.ok("grantRole", roleBody("factory", "MANAGER_ROLE", alice.address, brand.address));
      assert.deepEqual(grant.call, {
        contract: "factory",
        function: "grantRole",
        args: [id("MANAGER_ROLE"), alice.address],
      });
      assert.equal(grant.to, e.record.factory);
      await e.send(brand, grant);
      assert.equal(await e.c.factory.hasRole(id("MANAGER_ROLE"), alice.address), true);
      const check = { params: { contract: "factory", role: "MANAGER", address: alice.address } };
      assert.equal((await e.ok("checkRole", check)).hasRole, true);

      const revoke = await e.ok("revokeRole", roleBody("factory", "MANAGER", alice.address, brand.address));
      assert.deepEqual(revoke.call.function, "revokeRole");
      await e.send(brand, revoke);
      assert.equal(await e.c.factory.hasRole(id("MANAGER_ROLE"), alice.address), false);
      assert.equal((await e.ok("checkRole", check)).hasRole, false);
    });

    it("grant_acceptsCaseInsensitiveContractNames_andShortRoleNames_onEveryContract", async () => {
      const { brand, alice } = e.who;
      const cases: [string, string, ProgramContract, string][] = [
        ["Points", "minter", "points", "MINTER_ROLE"],
        ["PSPVAULT", "settlement_admin", "pspVault", "SETTLEMENT_ADMIN_ROLE"],
        ["collateralvault", "PAUSER", "collateralVault", "PAUSER_ROLE"],
        ["Oracle", "pauser_role", "oracle", "PAUSER_ROLE"],
        ["factory", "EXECUTOR_ROLE", "factory", "EXECUTOR_ROLE"],
      ];
      for (const [name, role, key, full] of cases) {
        const data = await e.ok("grantRole", roleBody(name, role, alice.address, brand.address));
        assert.equal(data.call.contract, key);
        await e.send(brand, data);
        assert.equal(await e.c[key]!.hasRole(id(full), alice.address), true, `${name} ${role}`);
      }
    });

    it("grant_andRevoke_withoutAnApiKey_are401", async () => {
      const { brand, alice } = e.who;
      const req = { ...roleBody("factory", "MANAGER", alice.address, brand.address), auth: false };
      expectError(await e.call("grantRole", req), 401, "UNAUTHORIZED");
      expectError(await e.call("revokeRole", req), 401, "UNAUTHORIZED");
    });

    it("grant_andRevoke_forANonAdminKey_are403MissingDefaultAdminRole", async () => {
      const { alice, outsider } = e.who;
      for (const name of ["grantRole", "revokeRole"] as const) {
        const res = await e.call(name, roleBody("pspVault", "MANAGER", alice.address, outsider.address));
        expectMissingRole(res, { contract: "pspVault", role: "DEFAULT_ADMIN_ROLE", account: outsider.address });
      }
    });

    it("grant_ofDefaultAdminRole_is422AccessControlEnforcedDefaultAdminRules", async () => {
      const { brand, alice } = e.who;
      const res = await e.call("grantRole", roleBody("points", "DEFAULT_ADMIN_ROLE", alice.address, brand.address));
      expectRevert(res, "points", "AccessControlEnforcedDefaultAdminRules", {});
      assert.equal(await e.c.points.hasRole(ZeroHash, alice.address), false);
    });

    it("grant_ofARoleTheContractDoesNotDefine_is400", async () => {
      const { brand, alice } = e.who;
      const res = await e.call("grantRole", roleBody("points", "MANAGER", alice.address, brand.address));
      expectError(res, 400, "INVALID_INPUT");
    });
  });

  describe("POST /api/v1/freeze/pause and /unpause", () => {
    // Each contract by a differently cased name; carol is made a pauser (and nothing else).
    const contracts: [string, ProgramContract][] = [
      ["FACTORY", "factory"],
      ["Points", "points"],
      ["collateralvault", "collateralVault"],
      ["PSPVault", "pspVault"],
      ["oracle", "oracle"],
    ];
    const freeze = (name: "pause" | "unpause", contract: string, key: string) =>
      e.call(name, { body: { input: { contract }, key } });

    for (const [name, key] of contracts) {
      it(`${key}_pausedByAPauser_unpausedOnlyByTheAdmin_andPausedReadsBackOnChain`, async () => {
        const { brand, carol, outsider } = e.who;
        const c = e.c[key]!;
        await e.send(brand, await e.ok("grantRole", roleBody(name, "PAUSER", carol.address, brand.address)));

        const stranger = await freeze("pause", name, outsider.address);
        expectMissingRole(stranger, { contract: key, role: "PAUSER_ROLE", account: outsider.address });

        const pause = await e.ok("pause", { body: { input: { contract: name }, key: carol.address } });
        assert.deepEqual([pause.to, pause.call.function], [await c.getAddress(), "pause"]);
        await e.send(carol, pause);
        assert.equal(await c.paused(), true);
        expectRevert(await freeze("pause", name, carol.address), key, "EnforcedPause", {});

        const pauserOnly = await freeze("unpause", name, carol.address);
        expectMissingRole(pauserOnly, { contract: key, role: "DEFAULT_ADMIN_ROLE", account: carol.address });

        await e.send(brand, await e.ok("unpause", { body: { input: { contract: name }, key: brand.address } }));
        assert.equal(await c.paused(), false);
        expectRevert(await freeze("unpause", name, brand.address), key, "ExpectedPause", {});
      });
    }

    it("pause_withoutAnApiKey_is401", async () => {
      const res = await e.call("pause", {
        body: { input: { contract: "factory" }, key: e.who.brand.address },
        auth: false,
      });
      expectError(res, 401, "UNAUTHORIZED");
    });
  });
});
