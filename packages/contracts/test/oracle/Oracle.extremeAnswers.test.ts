import { expect } from "chai";
import { networkHelpers } from "../helpers/programFixture.js";
import { ASSET_18, ASSET_24, feed, oracleFixture, stamp } from "./oracleFixture.js";

const { loadFixture } = networkHelpers;
const MAX_INT256 = 2n ** 255n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;
const GRACE = 3_600n;

// A feed answering 2^255-1 made isPegged revert (overflow scaling to 18
// decimals), which blocked mint and redeem. Extreme or malformed answers read as "not pegged".
describe("Oracle: extreme and malformed answers never revert isPegged", () => {
  it("anAnswerOf2pow255minus1_onAn8DecimalFeed_isNotPegged_andGetPriceRevertsInvalidPrice", async () => {
    const p = await loadFixture(oracleFixture);
    const usdc = await p.usdc.getAddress();
    for (const answer of [MAX_INT256, MAX_UINT256 / 10n ** 10n + 1n]) {
      await p.usdcFeed.setAnswer(answer);
      expect(await p.oracle.isPegged(usdc)).to.equal(false);
      await expect(p.oracle.getPrice(usdc))
        .to.be.revertedWithCustomError(p.oracle, "InvalidPrice")
        .withArgs(usdc, answer);
    }
    // The Factory reads it as "not pegged": minting closes, basket mode turns on, nothing reverts.
    expect(await p.factory.isBasketMode()).to.equal(true);
  });

  it("theLargestAnswerThatScales_isAPrice_outsideTheBand", async () => {
    const p = await loadFixture(oracleFixture);
    const usdc = await p.usdc.getAddress();
    const largest = MAX_UINT256 / 10n ** 10n;
    await p.usdcFeed.setAnswer(largest);
    expect(await p.oracle.getPrice(usdc)).to.equal(largest * 10n ** 10n);
    expect(await p.oracle.isPegged(usdc)).to.equal(false);
  });

  it("anAnswerOf2pow255minus1_on18And24DecimalFeeds_isAPriceOutsideTheBand", async () => {
    const p = await loadFixture(oracleFixture);
    await p.feed18.setAnswer(MAX_INT256);
    await p.feed24.setAnswer(MAX_INT256);
    expect(await p.oracle.getPrice(ASSET_18)).to.equal(MAX_INT256);
    expect(await p.oracle.getPrice(ASSET_24)).to.equal(MAX_INT256 / 10n ** 6n);
    expect(await p.oracle.isPegged(ASSET_18)).to.equal(false);
    expect(await p.oracle.isPegged(ASSET_24)).to.equal(false);
  });

  it("aSequencerFeedStartedAt2pow256minus1_isNeverReady_isPeggedFalse_getPriceRevertsGracePeriodNotOver", async () => {
    const p = await loadFixture(oracleFixture);
    const sequencer = await feed(0, 0n);
    await stamp(sequencer, 0n, 2n * GRACE);
    await p.oracle.connect(p.admin).setSequencerFeed(sequencer, GRACE);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
    await sequencer.setAnswerAt(0n, MAX_UINT256);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    await expect(p.oracle.getPrice(p.usdc))
      .to.be.revertedWithCustomError(p.oracle, "SequencerGracePeriodNotOver")
      .withArgs(MAX_UINT256);
    expect(await p.factory.isBasketMode()).to.equal(true);
  });

  it("aMalformedOrRevertingFeed_isNotPegged", async () => {
    const p = await loadFixture(oracleFixture);
    await p.usdcFeed.setMalformed(true);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    await p.usdcFeed.setMalformed(false);
    await p.usdcFeed.setReverts(true);
    expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
  });
});
