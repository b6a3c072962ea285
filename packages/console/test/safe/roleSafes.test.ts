import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet } from "ethers";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/safe/roleSafes.ts";
type Role = { contract: string; role: string };
type RoleSafe = { address: string; owners: string[]; roles: Role[] };
const { safeFor, adminSafe, NEEDS } = (await import(source)) as {
  safeFor: (
    safes: RoleSafe[],
    wallet: string | null,
    needs: Role[],
  ) => { from: string; safe: RoleSafe; role: Role } | null;
  adminSafe: (safes: RoleSafe[]) => RoleSafe | null;
  NEEDS: Record<"createCampaign" | "issue" | "settleOrExpire" | "transfer", Role[]>;
};

const addr = () => Wallet.createRandom().address;
const [alice, bob, carol] = [addr(), addr(), addr()];
const admin = (contract: string) => ({ contract, role: "DEFAULT_ADMIN_ROLE" });
const four = ["factory", "points", "collateralVault", "pspVault"].map(admin);
const adminSafeOf: RoleSafe = {
  address: addr(),
  owners: [alice, bob],
  roles: [...four, { contract: "pspVault", role: "MANAGER_ROLE" }],
};
const settler: RoleSafe = {
  address: addr(),
  owners: [bob, carol],
  roles: [{ contract: "pspVault", role: "SETTLEMENT_ADMIN_ROLE" }],
};

describe("which Safe runs an action: the wallet's Safe that holds the role the action needs", () => {
  it("aSettle_goesToTheSettlementSafe_beforeTheManagerSafe_whenTheWalletOwnsBoth", () => {
    const picked = safeFor([adminSafeOf, settler], bob, NEEDS.settleOrExpire);
    assert.deepEqual(picked, { from: settler.address, safe: settler, role: NEEDS.settleOrExpire[0] });
  });

  it("aSettle_goesToTheManagerSafe_whenTheWalletOwnsOnlyIt", () => {
    const picked = safeFor([adminSafeOf, settler], alice, NEEDS.settleOrExpire);
    assert.deepEqual(picked, {
      from: adminSafeOf.address,
      safe: adminSafeOf,
      role: { contract: "pspVault", role: "MANAGER_ROLE" },
    });
  });

  it("aWalletOwningNoSafeWithTheRole_orNoWallet_getsNoSafe", () => {
    assert.equal(safeFor([adminSafeOf, settler], addr(), NEEDS.settleOrExpire), null);
    assert.equal(safeFor([adminSafeOf, settler], null, NEEDS.settleOrExpire), null);
    // carol owns the settler only, which cannot pause the Factory.
    assert.equal(safeFor([adminSafeOf, settler], carol, [{ contract: "factory", role: "PAUSER_ROLE" }]), null);
    assert.equal(safeFor([adminSafeOf, settler], carol, NEEDS.transfer), null);
  });

  it("theAdminSafe_isTheOneHoldingDefaultAdminOnAllFourHandoverContracts", () => {
    assert.equal(adminSafe([settler, adminSafeOf]), adminSafeOf);
    const three = { ...adminSafeOf, roles: four.slice(0, 3) };
    assert.equal(adminSafe([settler, three]), null);
  });
});
