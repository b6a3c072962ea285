import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import {
  BRAND,
  IMPLEMENTATION_SLOT,
  asTuple,
  brandHash,
  deployThrough,
  oracleParams,
  paramsFor,
  releaseFixture,
} from "../helpers/releaseFixture.js";
import type { Release } from "../helpers/releaseFixture.js";

const fixture = releaseFixture;
const KEYS = ["points", "factory", "collateralVault", "pspVault", "oracle"] as const;

/** CREATE2 address of proxy `index` of `brand`, computed off-chain from the documented salt. */
async function expectedAddress(r: Release, brand: string, index: number) {
  const impl = r.implAddresses[KEYS[index]!];
  const salt = ethers.keccak256(
    ethers.AbiCoder.defaultAbiCoder().encode(["bytes32", "uint256"], [brandHash(brand), index]),
  );
  const proxy = await ethers.getContractFactory("ProgramProxy");
  const initCode = ethers.concat([proxy.bytecode, ethers.AbiCoder.defaultAbiCoder().encode(["address"], [impl])]);
  return ethers.getCreate2Address(await r.pf.getAddress(), salt, ethers.keccak256(initCode));
}

describe("ProgramFactory: addresses, event and registry", () => {
  describe("predictAddresses", () => {
    it("predictAddresses_followsCreate2_withSaltFromBrandHashAndIndex", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const predicted = await r.pf.predictAddresses(BRAND);
      for (const [i, key] of KEYS.entries()) expect(predicted[key], key).to.equal(await expectedAddress(r, BRAND, i));
    });

    it("predictAddresses_givesFiveDistinctAddressesWithoutCode_beforeDeployment", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const predicted = asTuple(await r.pf.predictAddresses(BRAND));
      expect(new Set(predicted).size).to.equal(5);
      for (const a of predicted) expect(await ethers.provider.getCode(a)).to.equal("0x");
    });

    it("predictAddresses_equalsTheDeployedAddresses_withoutOracle", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const predicted = await r.pf.predictAddresses(BRAND);
      const { addresses } = await deployThrough(r, await paramsFor(r));
      expect(asTuple(addresses)).to.deep.equal([...asTuple(predicted).slice(0, 4), ethers.ZeroAddress]);
      for (const a of asTuple(predicted).slice(0, 4)) expect(await ethers.provider.getCode(a)).to.not.equal("0x");
      expect(await ethers.provider.getCode(predicted.oracle)).to.equal("0x");
    });

    it("predictAddresses_equalsTheDeployedAddresses_withOracle", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const predicted = await r.pf.predictAddresses(BRAND);
      const { addresses } = await deployThrough(r, await paramsFor(r, await oracleParams(r)));
      expect(asTuple(addresses)).to.deep.equal(asTuple(predicted));
      for (const a of asTuple(predicted)) expect(await ethers.provider.getCode(a)).to.not.equal("0x");
    });

    it("predictAddresses_differsPerBrand_andPerProgramFactory", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const acme = asTuple(await r.pf.predictAddresses("acme"));
      const other = asTuple(await r.pf.predictAddresses("acme2"));
      const elsewhere = asTuple(await r.otherPf.predictAddresses("acme"));
      expect(new Set([...acme, ...other, ...elsewhere]).size).to.equal(15);
    });

    it("deployProgram_returnsThePredictedAddresses", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const params = await paramsFor(r, await oracleParams(r));
      const returned = await r.pf.connect(r.operator).deployProgram.staticCall(params);
      expect(asTuple(returned)).to.deep.equal(asTuple(await r.pf.predictAddresses(BRAND)));
    });
  });

  describe("ERC-1967 implementation slot", () => {
    for (const withOracle of [false, true]) {
      it(`everyProxy_pointsAtTheReleasesImplementation_${withOracle ? "withOracle" : "withoutOracle"}`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        const extra = withOracle ? await oracleParams(r) : {};
        const p = await deployThrough(r, await paramsFor(r, extra));
        const keys = withOracle ? KEYS : KEYS.slice(0, 4);
        for (const key of keys) {
          const slot = await ethers.provider.getStorage(p.addresses[key], IMPLEMENTATION_SLOT);
          expect(ethers.getAddress(ethers.dataSlice(slot, 12)), key).to.equal(r.implAddresses[key]);
        }
        // Each proxy announced its implementation (ERC-1967 Upgraded) in the deployment itself.
        const upgraded = p.receipt.logs
          .map((l) => ({ address: l.address, parsed: p.points.interface.parseLog(l) }))
          .filter((l) => l.parsed?.name === "Upgraded")
          .map((l) => [l.address, l.parsed!.args[0]]);
        expect(upgraded).to.deep.equal(keys.map((k) => [p.addresses[k], r.implAddresses[k]]));
      });
    }

    it("everyProxy_isInitializedOnce_atVersion1_inTheDeployment", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const p = await deployThrough(r, await paramsFor(r, await oracleParams(r)));
      for (const c of [p.points, p.factory, p.vault, p.psp, p.oracle!]) {
        await expect(p.tx).to.emit(c, "Initialized").withArgs(1);
      }
    });
  });

  describe("ProgramDeployed", () => {
    for (const withOracle of [false, true]) {
      it(`deployProgram_emitsProgramDeployed_withEveryAddress_${withOracle ? "withOracle" : "withoutOracle"}`, async () => {
        const r = await networkHelpers.loadFixture(fixture);
        const extra = withOracle ? await oracleParams(r) : {};
        const predicted = asTuple(await r.pf.predictAddresses(BRAND));
        const program = withOracle ? predicted : [...predicted.slice(0, 4), ethers.ZeroAddress];
        const tx = r.pf.connect(r.operator).deployProgram(await paramsFor(r, extra));
        await expect(tx)
          .to.emit(r.pf, "ProgramDeployed")
          .withArgs(brandHash(BRAND), BRAND, r.brandWallet.address, r.operator.address, program);
      });
    }

    it("deployProgram_emitsExactlyOneProgramDeployed_indexedByBrandHashAdminAndExecutor", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const p = await deployThrough(r, await paramsFor(r));
      const filter = r.pf.filters.ProgramDeployed(
        brandHash(BRAND),
        undefined,
        r.brandWallet.address,
        r.operator.address,
      );
      const events = await r.pf.queryFilter(filter, p.receipt.blockNumber);
      expect(events).to.have.length(1);
      const byOther = r.pf.filters.ProgramDeployed(undefined, undefined, undefined, r.otherOperator.address);
      expect(await r.pf.queryFilter(byOther, p.receipt.blockNumber)).to.have.length(0);
      const all = await r.pf.queryFilter(r.pf.filters.ProgramDeployed(), p.receipt.blockNumber);
      expect(all).to.have.length(1);
    });
  });

  describe("programOf and programCount", () => {
    it("programOf_isAllZero_andProgramCountZero_beforeAnyDeployment", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      expect(asTuple(await r.pf.programOf(BRAND))).to.deep.equal(Array(5).fill(ethers.ZeroAddress));
      expect(await r.pf.programCount()).to.equal(0n);
    });

    it("programOf_returnsTheDeployedProgram_andProgramCountCountsEachBrand", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const acme = await deployThrough(r, await paramsFor(r));
      expect(await r.pf.programCount()).to.equal(1n);
      const globex = await deployThrough(r, await paramsFor(r, { brand: "globex", ...(await oracleParams(r)) }));
      expect(await r.pf.programCount()).to.equal(2n);
      expect(asTuple(await r.pf.programOf("acme"))).to.deep.equal(asTuple(acme.addresses));
      expect(asTuple(await r.pf.programOf("globex"))).to.deep.equal(asTuple(await r.pf.predictAddresses("globex")));
      expect(globex.addresses.oracle).to.not.equal(ethers.ZeroAddress);
    });

    it("programOf_isKeyedByTheExactBrand_soOtherSpellingsAreUnknown", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await deployThrough(r, await paramsFor(r));
      for (const b of ["ACME", "acme ", "acm"]) {
        expect(asTuple(await r.pf.programOf(b))).to.deep.equal(Array(5).fill(ethers.ZeroAddress));
      }
    });

    it("programOf_isPerProgramFactory_soAnotherReleaseDoesNotKnowTheBrand", async () => {
      const r = await networkHelpers.loadFixture(fixture);
      await deployThrough(r, await paramsFor(r));
      expect(asTuple(await r.otherPf.programOf(BRAND))).to.deep.equal(Array(5).fill(ethers.ZeroAddress));
      expect(await r.otherPf.programCount()).to.equal(0n);
    });
  });
});
