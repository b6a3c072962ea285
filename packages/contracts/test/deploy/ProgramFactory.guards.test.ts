import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import {
  BRAND,
  OPERATOR_ROLE,
  asTuple,
  deployThrough,
  oracleParams,
  paramsFor,
  releaseFixture,
} from "../helpers/releaseFixture.js";
import type { Release } from "../helpers/releaseFixture.js";

const fixture = releaseFixture;

// Byte values just outside the allowed ranges ('/' < '0', ':' > '9', '`' < 'a', '{' > 'z'), the
// examples of what is not lowercase alphanumeric, and the length bounds.
const INVALID_BRANDS: [string, string][] = [
  ["empty", ""],
  ["33 characters", "a".repeat(33)],
  ["uppercase", "Acme"],
  ["hyphen", "ac-me"],
  ["space", "ac me"],
  ["non-ASCII letter", "acmé"],
  ["underscore", "ac_me"],
  ["byte below digits", "acme/"],
  ["byte above digits", "acme:"],
  ["byte below lowercase", "acme`"],
  ["byte above lowercase", "acme{"],
  ["NUL byte", "acme\u0000"],
];
const VALID_BRANDS: [string, string][] = [
  ["32 characters", "z".repeat(32)],
  ["digits only", "2026"],
  ["one character", "a"],
  ["every boundary character", "09az"],
];

async function expectNoProgram(r: Release, brand: string) {
  expect(asTuple(await r.pf.programOf(brand))).to.deep.equal(Array(5).fill(ethers.ZeroAddress));
}

describe("ProgramFactory: who may deploy and what is refused", () => {
  describe("only the operator deploys", () => {
    for (const who of ["outsider", "brandWallet", "otherOperator", "operatorAdmin"] as const) {
      it(`deployProgram_revertsWhen_callerIs_${who}_withoutOperatorRole`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        const caller = r[who];
        await expect(r.pf.connect(caller).deployProgram(await paramsFor(r)))
          .to.be.revertedWithCustomError(r.pf, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, OPERATOR_ROLE);
        await expectNoProgram(r, BRAND);
      });
    }

    it("deployProgram_checksTheOperatorFirst_evenForAnInvalidBrand", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await expect(r.pf.connect(r.outsider).deployProgram(await paramsFor(r, { brand: "Bad Brand" })))
        .to.be.revertedWithCustomError(r.pf, "AccessControlUnauthorizedAccount")
        .withArgs(r.outsider.address, OPERATOR_ROLE);
    });

    it("deployProgram_succeedsFor_anOperatorTheAdminGranted_andRevertsAfterRevocation", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await expect(r.pf.connect(r.operatorAdmin).grantRole(OPERATOR_ROLE, r.outsider.address))
        .to.emit(r.pf, "RoleGranted")
        .withArgs(OPERATOR_ROLE, r.outsider.address, r.operatorAdmin.address);
      await expect(r.pf.connect(r.outsider).deployProgram(await paramsFor(r))).to.emit(r.pf, "ProgramDeployed");
      await r.pf.connect(r.operatorAdmin).revokeRole(OPERATOR_ROLE, r.outsider.address);
      await expect(r.pf.connect(r.outsider).deployProgram(await paramsFor(r, { brand: "globex" })))
        .to.be.revertedWithCustomError(r.pf, "AccessControlUnauthorizedAccount")
        .withArgs(r.outsider.address, OPERATOR_ROLE);
    });

    it("grantRole_revertsWhen_theOperatorTriesToAddAnotherOperator", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await expect(r.pf.connect(r.operator).grantRole(OPERATOR_ROLE, r.outsider.address))
        .to.be.revertedWithCustomError(r.pf, "AccessControlUnauthorizedAccount")
        .withArgs(r.operator.address, ethers.ZeroHash);
    });
  });

  describe("brand names are lowercase alphanumeric, 1 to 32 characters", () => {
    for (const [why, brand] of INVALID_BRANDS) {
      it(`deployProgram_revertsWithInvalidBrand_when_${why.replace(/ /g, "_")}`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        await expect(r.pf.connect(r.operator).deployProgram(await paramsFor(r, { brand })))
          .to.be.revertedWithCustomError(r.pf, "InvalidBrand")
          .withArgs(brand);
        expect(await r.pf.programCount()).to.equal(0n);
        // A brand that can never be deployed has no predicted addresses either.
        await expect(r.pf.predictAddresses(brand)).to.be.revertedWithCustomError(r.pf, "InvalidBrand").withArgs(brand);
      });
    }

    for (const [why, brand] of VALID_BRANDS) {
      it(`deployProgram_acceptsABrandOf_${why.replace(/ /g, "_")}`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        const { addresses } = await deployThrough(r, await paramsFor(r, { brand }));
        expect(asTuple(addresses).slice(0, 4)).to.deep.equal(asTuple(await r.pf.predictAddresses(brand)).slice(0, 4));
        expect(await r.pf.programCount()).to.equal(1n);
      });
    }
  });

  describe("a brand exists once", () => {
    it("deployProgram_revertsWithBrandTaken_whenTheBrandAlreadyHasAProgram", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const first = await deployThrough(r, await paramsFor(r));
      // Different admin, executor and an Oracle do not make it another program.
      const again = await paramsFor(r, {
        admin: r.outsider.address,
        executor: r.otherOperator.address,
        ...(await oracleParams(r)),
      });
      await expect(r.pf.connect(r.operator).deployProgram(again))
        .to.be.revertedWithCustomError(r.pf, "BrandTaken")
        .withArgs(BRAND);
      expect(asTuple(await r.pf.programOf(BRAND))).to.deep.equal(asTuple(first.addresses));
      expect(await r.pf.programCount()).to.equal(1n);
    });

    it("deployProgram_revertsWithBrandTaken_beforeCheckingAnyAddress", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await deployThrough(r, await paramsFor(r));
      await expect(r.pf.connect(r.operator).deployProgram(await paramsFor(r, { admin: ethers.ZeroAddress })))
        .to.be.revertedWithCustomError(r.pf, "BrandTaken")
        .withArgs(BRAND);
    });
  });

  describe("required addresses", () => {
    for (const field of ["admin", "collateralAsset"] as const) {
      it(`deployProgram_revertsWithZeroAddress_when_${field}_isZero`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        await expect(
          r.pf.connect(r.operator).deployProgram(await paramsFor(r, { [field]: ethers.ZeroAddress })),
        ).to.be.revertedWithCustomError(r.pf, "ZeroAddress");
        await expectNoProgram(r, BRAND);
      });
    }

    it("deployProgram_withZeroExecutor_grantsEXECUTOR_ROLEToNobody_andTheBrandsManagerGrantsItLater", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const { factory } = await deployThrough(r, await paramsFor(r, { executor: ethers.ZeroAddress }));
      const EXECUTOR = ethers.id("EXECUTOR_ROLE");
      const granted = await factory.queryFilter(factory.filters.RoleGranted(EXECUTOR));
      expect(granted).to.have.length(0);
      expect(await factory.hasRole(EXECUTOR, r.operator)).to.equal(false);
      expect(await factory.hasRole(EXECUTOR, ethers.ZeroAddress)).to.equal(false);
      await expect(factory.connect(r.operator).grantRole(EXECUTOR, r.operator))
        .to.be.revertedWithCustomError(factory, "AccessControlUnauthorizedAccount")
        .withArgs(r.operator.address, ethers.id("MANAGER_ROLE"));
      await expect(factory.connect(r.brandWallet).grantRole(EXECUTOR, r.operator))
        .to.emit(factory, "RoleGranted")
        .withArgs(EXECUTOR, r.operator.address, r.brandWallet.address);
    });

    it("deployProgram_revertsWithNotAContract_when_collateralAssetHasNoCode", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const eoa = r.brandWallet.address;
      await expect(r.pf.connect(r.operator).deployProgram(await paramsFor(r, { collateralAsset: eoa })))
        .to.be.revertedWithCustomError(r.pf, "NotAContract")
        .withArgs(eoa);
      await expectNoProgram(r, BRAND);
    });

    it("deployProgram_acceptsAZeroFeeReceiver_asTheBrandWallet", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const p = await deployThrough(r, await paramsFor(r, { feeReceiver: ethers.ZeroAddress }));
      expect(await p.factory.feeReceiver()).to.equal(r.brandWallet.address);
    });
  });
});
