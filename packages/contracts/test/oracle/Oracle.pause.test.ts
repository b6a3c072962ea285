import { expect } from "chai";
import { deployProgram, networkHelpers, USDC } from "../helpers/programFixture.js";
import { oracleFixture } from "./oracleFixture.js";

const programWithOracle = () => deployProgram({ withOracle: true });

describe("Oracle: pause (a paused Oracle vouches for no price)", () => {
  it("getPrice_revertsWith_EnforcedPause_whilePaused_andRecoversOnUnpause", async () => {
    const p = await networkHelpers.loadFixture(oracleFixture);
    await p.oracle.pause();
    await expect(p.oracle.getPrice(p.usdc)).to.be.revertedWithCustomError(p.oracle, "EnforcedPause");
    await p.oracle.unpause();
    expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
  });

  it("isPegged_isFalse_whilePaused_withoutReverting", async () => {
    const p = await networkHelpers.loadFixture(oracleFixture);
    await p.oracle.pause();
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    await p.oracle.unpause();
    expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
  });

  it("pausingTheOracle_turnsBasketModeOn_andClosesMinting", async () => {
    const p = await networkHelpers.loadFixture(programWithOracle);
    await p.factory.addToMintWhitelist(p.alice);
    await p.points.addToTransferWhitelist(p.alice);
    await p.usdc.mint(p.alice, USDC(10));
    await p.usdc.connect(p.alice).approve(p.factory, USDC(10));
    expect(await p.factory.isBasketMode()).to.equal(false);
    await p.oracle!.pause();
    expect(await p.factory.isBasketMode()).to.equal(true);
    await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice))
      .to.be.revertedWithCustomError(p.factory, "AssetNotPegged")
      .withArgs(await p.usdc.getAddress());
    await p.oracle!.unpause();
    expect(await p.factory.isBasketMode()).to.equal(false);
    await p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice);
  });
});
