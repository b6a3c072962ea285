import { expect } from "chai";
import { ethers, networkHelpers, ROLES, USDC } from "../helpers/programFixture.js";
import { feed, oracleFixture, stamp } from "./oracleFixture.js";

const { loadFixture } = networkHelpers;
const GRACE = 3_600n;
const UP = 0n;
const DOWN = 1n;

/** oracleFixture plus a sequencer-uptime feed that has said "up" for two hours, grace one hour. */
async function sequencerFixture() {
  const p = await oracleFixture();
  const sequencer = await feed(0, UP);
  await stamp(sequencer, UP, 2n * GRACE);
  await p.oracle.connect(p.admin).setSequencerFeed(sequencer, GRACE);
  return { ...p, sequencer };
}

describe("Oracle: optional L2 sequencer-uptime feed", () => {
  it("getPrice_answers_whenTheSequencerIsUpPastItsGracePeriod", async () => {
    const p = await loadFixture(sequencerFixture);
    expect(await p.oracle.sequencerFeed()).to.deep.equal([await p.sequencer.getAddress(), GRACE]);
    expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
  });

  it("getPrice_revertsWith_SequencerDown_whenPricesAreReadDuringASequencerOutage", async () => {
    const p = await loadFixture(sequencerFixture);
    await stamp(p.sequencer, DOWN, 60n);
    await expect(p.oracle.getPrice(p.usdc))
      .to.be.revertedWithCustomError(p.oracle, "SequencerDown")
      .withArgs(await p.sequencer.getAddress());
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    // The Factory reads the outage as "not pegged": minting closes, basket mode turns on.
    expect(await p.factory.isBasketMode()).to.equal(true);
  });

  it("getPrice_revertsWith_SequencerGracePeriodNotOver_rightAfterARestart_thenAnswers", async () => {
    const p = await loadFixture(sequencerFixture);
    const upSince = await stamp(p.sequencer, UP, 100n);
    await expect(p.oracle.getPrice(p.usdc))
      .to.be.revertedWithCustomError(p.oracle, "SequencerGracePeriodNotOver")
      .withArgs(upSince + GRACE);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    await networkHelpers.time.increaseTo(upSince + GRACE);
    await p.usdcFeed.setAnswer(100_000_000n);
    expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
  });

  it("getPrice_revertsWith_SequencerDown_whenTheUptimeFeedReverts_isMalformed_orNeverStarted", async () => {
    const p = await loadFixture(sequencerFixture);
    const seq = await p.sequencer.getAddress();
    const breaks = [
      () => p.sequencer.setReverts(true),
      () => p.sequencer.setMalformed(true),
      () => p.sequencer.setAnswerAt(UP, 0n),
    ];
    for (const [i, broken] of breaks.entries()) {
      await broken();
      await expect(p.oracle.getPrice(p.usdc), `case ${i}`)
        .to.be.revertedWithCustomError(p.oracle, "SequencerDown")
        .withArgs(seq);
      expect(await p.oracle.isPegged(p.usdc), `case ${i}`).to.equal(false);
      await p.sequencer.setReverts(false);
      await p.sequencer.setMalformed(false);
    }
  });

  it("factoryMint_revertsWith_AssetNotPegged_duringASequencerOutage", async () => {
    const p = await loadFixture(sequencerFixture);
    await stamp(p.sequencer, DOWN, 0n);
    await p.factory.connect(p.admin).addToMintWhitelist(p.alice);
    await p.points.connect(p.admin).addToTransferWhitelist(p.alice);
    await p.usdc.mint(p.alice, USDC(10));
    await p.usdc.connect(p.alice).approve(p.factory, USDC(10));
    await expect(p.factory.connect(p.alice).mint(p.usdc, USDC(10), p.alice))
      .to.be.revertedWithCustomError(p.factory, "AssetNotPegged")
      .withArgs(await p.usdc.getAddress());
  });

  it("setSequencerFeed_toZero_removesTheCheck_andEmits", async () => {
    const p = await loadFixture(sequencerFixture);
    await stamp(p.sequencer, DOWN, 0n);
    await expect(p.oracle.connect(p.admin).setSequencerFeed(ethers.ZeroAddress, 0))
      .to.emit(p.oracle, "SequencerFeedUpdated")
      .withArgs(ethers.ZeroAddress, 0n);
    expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
  });

  it("setSequencerFeed_revertsWhen_callerLacksDefaultAdminRole", async () => {
    const p = await loadFixture(sequencerFixture);
    for (const who of [p.executor, p.outsider]) {
      await expect(p.oracle.connect(who).setSequencerFeed(ethers.ZeroAddress, 0))
        .to.be.revertedWithCustomError(p.oracle, "AccessControlUnauthorizedAccount")
        .withArgs(who.address, ROLES.DEFAULT_ADMIN);
    }
  });
});
