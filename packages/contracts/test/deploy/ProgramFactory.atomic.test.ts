import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import { BRAND, asTuple, deployThrough, oracleParams, paramsFor, releaseFixture } from "../helpers/releaseFixture.js";
import type { DeployParams, Release } from "../helpers/releaseFixture.js";

const fixture = releaseFixture;
const MAX_REDEEM_DELAY = 30n * 24n * 3600n;

/** After a failed deployment: nothing at any predicted address, nothing recorded, brand still free. */
async function expectNothingDeployed(r: Release) {
  for (const a of asTuple(await r.pf.predictAddresses(BRAND))) expect(await ethers.provider.getCode(a)).to.equal("0x");
  expect(asTuple(await r.pf.programOf(BRAND))).to.deep.equal(Array(5).fill(ethers.ZeroAddress));
  expect(await r.pf.programCount()).to.equal(0n);
  const { addresses } = await deployThrough(r, await paramsFor(r, await oracleParams(r)));
  expect(asTuple(addresses)).to.deep.equal(asTuple(await r.pf.predictAddresses(BRAND)));
}

// One transaction, so there is never a half-deployed program (docs/deployment.md#programfactory-and-create2). Each case below gets
// past the ProgramFactory's own checks, creates proxies, and then fails inside an initializer.
describe("ProgramFactory: the whole deployment is atomic", () => {
  it("deployProgram_revertsWithFeeTooHigh_forAMintFeeOf1001Bps_andLeavesNothing", async () => {
    const r = await networkHelpers.loadFixture(fixture);
    await expect(r.pf.connect(r.operator).deployProgram(await paramsFor(r, { mintFeeBps: 1001 })))
      .to.be.revertedWithCustomError(r.impls.factory, "FeeTooHigh")
      .withArgs(1001, 1000);
    await expectNothingDeployed(r);
  });

  it("deployProgram_revertsWithFeeTooHigh_forARedeemFeeOf1001Bps_withOracle_andLeavesNothing", async () => {
    const r = await networkHelpers.loadFixture(fixture);
    const params = await paramsFor(r, { redeemFeeBps: 1001, ...(await oracleParams(r)) });
    await expect(r.pf.connect(r.operator).deployProgram(params))
      .to.be.revertedWithCustomError(r.impls.factory, "FeeTooHigh")
      .withArgs(1001, 1000);
    await expectNothingDeployed(r);
  });

  it("deployProgram_acceptsTheMaximumFeeOf1000Bps", async () => {
    const r = await networkHelpers.loadFixture(fixture);
    const p = await deployThrough(r, await paramsFor(r, { mintFeeBps: 1000, redeemFeeBps: 1000 }));
    expect([await p.factory.mintFeeBps(), await p.factory.redeemFeeBps()]).to.deep.equal([1000n, 1000n]);
  });

  it("deployProgram_revertsWithRedeemDelayTooLong_over30Days_andLeavesNothing", async () => {
    const r = await networkHelpers.loadFixture(fixture);
    const params = await paramsFor(r, { redeemDelay: MAX_REDEEM_DELAY + 1n });
    await expect(r.pf.connect(r.operator).deployProgram(params))
      .to.be.revertedWithCustomError(r.impls.factory, "RedeemDelayTooLong")
      .withArgs(MAX_REDEEM_DELAY + 1n, MAX_REDEEM_DELAY);
    await expectNothingDeployed(r);
  });

  it("deployProgram_revertsWithUnsupportedDecimals_forCollateralAbove18Decimals_andLeavesNothing", async () => {
    const r = await networkHelpers.loadFixture(fixture);
    const wide = await ethers.deployContract("MockStablecoin", ["Wide", "WIDE", 24]);
    const params = await paramsFor(r, { collateralAsset: await wide.getAddress() });
    await expect(r.pf.connect(r.operator).deployProgram(params))
      .to.be.revertedWithCustomError(r.impls.factory, "UnsupportedDecimals")
      .withArgs(await wide.getAddress(), 24);
    await expectNothingDeployed(r);
  });

  const oracleCases: [string, Partial<DeployParams>, string, unknown[]][] = [
    ["InvalidPegBand_whenLowerPegAboveUpperPeg", { lowerPeg: 2n, upperPeg: 1n }, "InvalidPegBand", [2n, 1n]],
    ["InvalidPegBand_whenLowerPegIsZero", { lowerPeg: 0n }, "InvalidPegBand", [0n, ethers.parseUnits("1.02", 18)]],
    ["InvalidHeartbeat_whenHeartbeatIsZero", { oracleHeartbeat: 0 }, "InvalidHeartbeat", [0n]],
  ];
  for (const [name, override, error, args] of oracleCases) {
    it(`deployProgram_revertsWith${name}_inTheOracleInitializer_andLeavesNothing`, async () => {
      const r = await networkHelpers.loadFixture(fixture);
      const params = await paramsFor(r, { ...(await oracleParams(r)), ...override });
      await expect(r.pf.connect(r.operator).deployProgram(params))
        .to.be.revertedWithCustomError(r.impls.oracle, error)
        .withArgs(...args);
      await expectNothingDeployed(r);
    });
  }

  it("deployProgram_ignoresOracleSettings_whenNoFeedIsGiven", async () => {
    // Without a feed there is no Oracle, so a half-filled band is not an error.
    const r = await networkHelpers.loadFixture(fixture);
    const p = await deployThrough(r, await paramsFor(r, { oracleHeartbeat: 0, lowerPeg: 5n, upperPeg: 1n }));
    expect(p.addresses.oracle).to.equal(ethers.ZeroAddress);
    expect(await p.factory.oracle()).to.equal(ethers.ZeroAddress);
  });
});
