import { expect } from "chai";
import { ethers, networkHelpers, ROLES } from "../helpers/fixture.js";

async function releaseFixture() {
  const [operatorAdmin, executor, brandWallet] = await ethers.getSigners();
  const impls = {
    points: await ethers.deployContract("Points"),
    factory: await ethers.deployContract("Factory"),
    collateralVault: await ethers.deployContract("CollateralVault"),
    pspVault: await ethers.deployContract("PSPVault"),
    oracle: await ethers.deployContract("Oracle"),
  };
  const pf = await ethers.deployContract("ProgramFactory", [operatorAdmin, executor, impls, "1.0.0"]);
  const usdc = await ethers.deployContract("MockStablecoin", ["USD Coin", "USDC", 6]);
  return { pf, usdc, operatorAdmin, executor, brandWallet };
}

describe("ProgramFactory (smoke)", () => {
  it("deployProgram_createsWholeProgramInOneTransaction_atPredictedAddresses", async () => {
    const { pf, usdc, executor, brandWallet } = await networkHelpers.loadFixture(releaseFixture);
    const predicted = await pf.predictAddresses("acme");
    const tx = await pf.connect(executor).deployProgram({
      brand: "acme",
      tokenName: "Acme Points",
      tokenSymbol: "ACME",
      admin: brandWallet,
      executor,
      adminDelay: 0,
      collateralAsset: usdc,
      oracleFeed: ethers.ZeroAddress,
      oracleHeartbeat: 0,
      lowerPeg: 0,
      upperPeg: 0,
      feeReceiver: ethers.ZeroAddress,
      mintFeeBps: 0,
      redeemFeeBps: 0,
      redeemDelay: 0,
    });
    const receipt = await tx.wait();
    console.log("      deployProgram gas:", receipt!.gasUsed.toString());
    const program = await pf.programOf("acme");
    expect(program.points).to.equal(predicted.points);
    expect(program.pspVault).to.equal(predicted.pspVault);
    const factory = await ethers.getContractAt("Factory", program.factory);
    expect(await factory.hasRole(ROLES.EXECUTOR, executor)).to.equal(true);
    expect(await factory.hasRole(ROLES.MANAGER, brandWallet)).to.equal(true);
    expect(await factory.hasRole(ROLES.DEFAULT_ADMIN, pf)).to.equal(false);
  });
});
