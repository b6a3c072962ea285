import { expect } from "chai";
import type { BaseContract } from "ethers";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import { ADMIN_DELAY, deployThrough, oracleParams, paramsFor, releaseFixture } from "../helpers/releaseFixture.js";

// The roles at birth (docs/deployment.md#roles-at-birth), as a table: contract -> every role constant it defines ->
// exactly who holds it. A contract that gains a role constant fails the first test below until
// this table says who holds the new role at birth.
type Holder = "brandWallet" | "executor" | "programFactory" | "factory" | "pspVault" | "operatorAdmin" | "feeReceiver";
const HOLDERS: Holder[] = [
  "brandWallet",
  "executor",
  "programFactory",
  "factory",
  "pspVault",
  "operatorAdmin",
  "feeReceiver",
];
type Contract = "points" | "factory" | "collateralVault" | "pspVault" | "oracle";
const BIRTH_ROLES: Record<Contract, Record<string, Holder[]>> = {
  points: { DEFAULT_ADMIN_ROLE: ["brandWallet"], PAUSER_ROLE: ["brandWallet"], MINTER_ROLE: ["factory"] },
  factory: {
    DEFAULT_ADMIN_ROLE: ["brandWallet"],
    PAUSER_ROLE: ["brandWallet"],
    MANAGER_ROLE: ["brandWallet"],
    EXECUTOR_ROLE: ["executor"],
  },
  collateralVault: { DEFAULT_ADMIN_ROLE: ["brandWallet"], PAUSER_ROLE: ["brandWallet"] },
  pspVault: {
    DEFAULT_ADMIN_ROLE: ["brandWallet"],
    PAUSER_ROLE: ["brandWallet"],
    MANAGER_ROLE: ["brandWallet"],
    CAMPAIGN_ADMIN_ROLE: ["brandWallet"],
    ISSUING_ADMIN_ROLE: ["brandWallet"],
    SETTLEMENT_ADMIN_ROLE: ["brandWallet"],
    TRANSFER_ADMIN_ROLE: ["brandWallet"],
  },
  oracle: { DEFAULT_ADMIN_ROLE: ["brandWallet"], PAUSER_ROLE: ["brandWallet"] },
};

const ROLE_NAMES = [...new Set(Object.values(BIRTH_ROLES).flatMap((roles) => Object.keys(roles)))];

/** bytes32 role ids by name: keccak256(name), except DEFAULT_ADMIN_ROLE which is zero. */
const roleId = (name: string) => (name === "DEFAULT_ADMIN_ROLE" ? ethers.ZeroHash : ethers.id(name));

/** Names of every `*_ROLE` constant in a contract's ABI. */
const roleConstants = (c: BaseContract) => {
  const names: string[] = [];
  c.interface.forEachFunction((f) => {
    if (f.name.endsWith("_ROLE") && f.inputs.length === 0) names.push(f.name);
  });
  return names.sort();
};

async function deployed(withOracle: boolean, withFee: boolean) {
  const r = await releaseFixture();
  const extra = withOracle ? await oracleParams(r) : {};
  const fee = withFee ? { mintFeeBps: 50, redeemFeeBps: 30, feeReceiver: r.feeReceiver.address } : {};
  const p = await deployThrough(r, await paramsFor(r, { ...extra, ...fee }));
  const contracts: Partial<Record<Contract, BaseContract>> = {
    points: p.points,
    factory: p.factory,
    collateralVault: p.vault,
    pspVault: p.psp,
  };
  if (p.oracle) contracts.oracle = p.oracle;
  const holders: Record<Holder, string> = {
    brandWallet: r.brandWallet.address,
    executor: r.operator.address,
    programFactory: await r.pf.getAddress(),
    factory: p.addresses.factory,
    pspVault: p.addresses.pspVault,
    operatorAdmin: r.operatorAdmin.address,
    feeReceiver: r.feeReceiver.address,
  };
  return { r, p, contracts, holders };
}
const withoutOracle = () => deployed(false, false);
const withOracle = () => deployed(true, false);
const withOracleAndFees = () => deployed(true, true);

function rolesAtBirth(label: string, fixture: typeof withoutOracle, expected: Contract[]) {
  describe(`roles at birth: ${label}`, () => {
    it("deployProgram_createsExactlyTheExpectedContracts", async () => {
      const { contracts } = await networkHelpers.loadFixture(fixture);
      expect(Object.keys(contracts).sort()).to.deep.equal([...expected].sort());
    });

    for (const name of expected) {
      it(`${name}_definesExactlyTheRoleConstantsTheTableCovers`, async () => {
        const { contracts } = await networkHelpers.loadFixture(fixture);
        expect(roleConstants(contracts[name]!)).to.deep.equal(Object.keys(BIRTH_ROLES[name]).sort());
        for (const role of Object.keys(BIRTH_ROLES[name])) {
          const c = contracts[name] as unknown as Record<string, () => Promise<string>>;
          expect(await c[role]!(), role).to.equal(roleId(role));
        }
      });

      for (const [role, holders] of Object.entries(BIRTH_ROLES[name])) {
        it(`${name}.${role}_isHeldBy_${holders.join("_")}_only`, async () => {
          const { contracts, holders: who } = await networkHelpers.loadFixture(fixture);
          const c = contracts[name] as unknown as { hasRole(role: string, account: string): Promise<boolean> };
          for (const h of HOLDERS) {
            expect(await c.hasRole(roleId(role), who[h]), `${name}.${role} held by ${h}`).to.equal(holders.includes(h));
          }
        });
      }

      it(`${name}_defaultAdminIsTheBrandWallet_withTheAdminDelayPassed_andNoPendingTransfer`, async () => {
        const { contracts, r } = await networkHelpers.loadFixture(fixture);
        const c = contracts[name] as unknown as {
          defaultAdmin(): Promise<string>;
          owner(): Promise<string>;
          defaultAdminDelay(): Promise<bigint>;
          pendingDefaultAdmin(): Promise<[string, bigint]>;
          pendingDefaultAdminDelay(): Promise<[bigint, bigint]>;
        };
        expect(await c.defaultAdmin()).to.equal(r.brandWallet.address);
        expect(await c.owner()).to.equal(r.brandWallet.address);
        expect(await c.defaultAdminDelay()).to.equal(ADMIN_DELAY);
        expect([...(await c.pendingDefaultAdmin())]).to.deep.equal([ethers.ZeroAddress, 0n]);
        expect([...(await c.pendingDefaultAdminDelay())]).to.deep.equal([0n, 0n]);
      });
    }

    it("deployReceipt_grantsEveryRoleExactlyOnce_byItsContract_andNothingElse", async () => {
      const { contracts, holders, p, r } = await networkHelpers.loadFixture(fixture);
      const labelOf = new Map<string, string>();
      for (const [label, c] of Object.entries(contracts)) labelOf.set((await c.getAddress()).toLowerCase(), label);
      const holderOf = new Map(Object.entries(holders).map(([h, a]) => [a.toLowerCase(), h]));
      const pfAddress = (await r.pf.getAddress()).toLowerCase();
      const iface = contracts.points!.interface;
      const granted: string[] = [];
      for (const log of p.receipt.logs) {
        const parsed = iface.parseLog(log);
        expect(parsed?.name, `unexpected role event from ${log.address}`).to.not.be.oneOf([
          "RoleRevoked",
          "RoleAdminChanged",
        ]);
        if (parsed?.name !== "RoleGranted") continue;
        const [role, account, sender] = parsed.args as unknown as [string, string, string];
        // The initializer's caller is the ProgramFactory: it grants, it never receives.
        expect(sender.toLowerCase()).to.equal(pfAddress);
        const roleName = ROLE_NAMES.find((n) => roleId(n) === role) ?? role;
        granted.push(`${labelOf.get(log.address.toLowerCase())}.${roleName}:${holderOf.get(account.toLowerCase())}`);
      }
      const wanted = expected.flatMap((name) =>
        Object.entries(BIRTH_ROLES[name]).flatMap(([role, hs]) => hs.map((h) => `${name}.${role}:${h}`)),
      );
      expect(granted.sort()).to.deep.equal(wanted.sort());
    });

    it("programFactory_holdsNoRoleOfItsOwnProgram_andGrantsNoneOfItsOwn", async () => {
      const { r, p } = await networkHelpers.loadFixture(fixture);
      const own = await r.pf.queryFilter(r.pf.filters.RoleGranted(), p.receipt.blockNumber, p.receipt.blockNumber);
      expect(own).to.have.length(0);
      expect(await r.pf.hasRole(await r.pf.OPERATOR_ROLE(), r.brandWallet.address)).to.equal(false);
    });
  });
}

describe("ProgramFactory: roles at birth", () => {
  rolesAtBirth("without an Oracle", withoutOracle, ["points", "factory", "collateralVault", "pspVault"]);
  rolesAtBirth("with an Oracle", withOracle, ["points", "factory", "collateralVault", "pspVault", "oracle"]);
  // Fees only change the allowlist, never who holds a role (the fee receiver holds none).
  rolesAtBirth("with an Oracle and fees", withOracleAndFees, [
    "points",
    "factory",
    "collateralVault",
    "pspVault",
    "oracle",
  ]);
});
