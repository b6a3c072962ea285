import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import {
  OPERATOR_ROLE,
  RELEASE_VERSION,
  initializeCalls,
  paramsFor,
  releaseFixture,
} from "../helpers/releaseFixture.js";
import type { Release } from "../helpers/releaseFixture.js";
import type { ProgramFactory } from "../../types/ethers-contracts/index.js";

const fixture = releaseFixture;
const IMPL_KEYS = ["points", "factory", "collateralVault", "pspVault", "oracle"] as const;

/** Constructor arguments of a ProgramFactory like `r.pf`, with `impls` overridden. */
function args(r: Release, overrides: Partial<Record<(typeof IMPL_KEYS)[number], string>> = {}) {
  return [r.operatorAdmin.address, r.operator.address, { ...r.implAddresses, ...overrides }, RELEASE_VERSION];
}

// A release = five shared implementations + one ProgramFactory per chain and version (docs/deployment.md#releases).
describe("ProgramFactory: the release (constructor and views)", () => {
  describe("constructor", () => {
    it("constructor_recordsTheFiveImplementations_andTheVersion", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const impls = await r.pf.implementations();
      for (const key of IMPL_KEYS) expect(impls[key], key).to.equal(r.implAddresses[key]);
      expect(await r.pf.version()).to.equal(RELEASE_VERSION);
      expect(await r.pf.programCount()).to.equal(0n);
    });

    it("constructor_givesTheAdminDefaultAdminRole_andTheOperatorOperatorRole_only", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      expect(await r.pf.OPERATOR_ROLE()).to.equal(OPERATOR_ROLE);
      const deployment = r.pf.deploymentTransaction()!;
      await expect(deployment)
        .to.emit(r.pf, "RoleGranted")
        .withArgs(ethers.ZeroHash, r.operatorAdmin.address, r.operatorAdmin.address);
      await expect(deployment)
        .to.emit(r.pf, "RoleGranted")
        .withArgs(OPERATOR_ROLE, r.operator.address, r.operatorAdmin.address);
      for (const [who, admin, operator] of [
        [r.operatorAdmin, true, false],
        [r.operator, false, true],
        [r.brandWallet, false, false],
        [r.otherOperator, false, false],
      ] as const) {
        expect(await r.pf.hasRole(ethers.ZeroHash, who), "admin").to.equal(admin);
        expect(await r.pf.hasRole(OPERATOR_ROLE, who), "operator").to.equal(operator);
      }
      // The admin of operators administers OPERATOR_ROLE; operators administer nothing.
      expect(await r.pf.getRoleAdmin(OPERATOR_ROLE)).to.equal(ethers.ZeroHash);
    });

    it("constructor_withAZeroOperator_grantsNoOperator_untilTheAdminDoes", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const pf = (await ethers.deployContract("ProgramFactory", [
        r.operatorAdmin.address,
        ethers.ZeroAddress,
        r.implAddresses,
        RELEASE_VERSION,
      ])) as unknown as ProgramFactory;
      const receipt = await pf.deploymentTransaction()!.wait();
      const granted = receipt!.logs.map((l) => pf.interface.parseLog(l)).filter((e) => e?.name === "RoleGranted");
      expect(granted.map((e) => [...e!.args])).to.deep.equal([
        [ethers.ZeroHash, r.operatorAdmin.address, r.operatorAdmin.address],
      ]);
      await expect(pf.connect(r.operator).deployProgram(await paramsFor(r)))
        .to.be.revertedWithCustomError(pf, "AccessControlUnauthorizedAccount")
        .withArgs(r.operator.address, OPERATOR_ROLE);
      await pf.connect(r.operatorAdmin).grantRole(OPERATOR_ROLE, r.operator.address);
      await expect(pf.connect(r.operator).deployProgram(await paramsFor(r))).to.emit(pf, "ProgramDeployed");
    });

    it("constructor_revertsWithZeroAddress_whenTheAdminIsZero", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const [, ...rest] = args(r);
      await expect(
        ethers.deployContract("ProgramFactory", [ethers.ZeroAddress, ...rest]),
      ).to.be.revertedWithCustomError(r.pf, "ZeroAddress");
    });

    for (const key of IMPL_KEYS) {
      it(`constructor_revertsWithNotAContract_whenThe_${key}_implementationHasNoCode`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        await expect(ethers.deployContract("ProgramFactory", args(r, { [key]: r.outsider.address })))
          .to.be.revertedWithCustomError(r.pf, "NotAContract")
          .withArgs(r.outsider.address);
      });

      it(`constructor_revertsWithNotAContract_whenThe_${key}_implementationIsZero`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        await expect(ethers.deployContract("ProgramFactory", args(r, { [key]: ethers.ZeroAddress })))
          .to.be.revertedWithCustomError(r.pf, "NotAContract")
          .withArgs(ethers.ZeroAddress);
      });
    }
  });

  describe("the implementations", () => {
    it("implementations_cannotBeInitialized_byAnyone", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const a = r.outsider.address;
      const usdc = await r.usdc.getAddress();
      const attempts = initializeCalls(r.impls, { signer: r.outsider, asset: usdc, account: a });
      for (const attempt of attempts) {
        await expect(attempt()).to.be.revertedWithCustomError(r.impls.points, "InvalidInitialization");
      }
    });

    it("implementations_holdNoRoleForAnyone", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      for (const impl of Object.values(r.impls)) {
        expect(await impl.defaultAdmin()).to.equal(ethers.ZeroAddress);
        for (const who of [r.operatorAdmin, r.operator, r.pf]) {
          expect(await impl.hasRole(ethers.ZeroHash, who)).to.equal(false);
        }
      }
    });
  });
});
