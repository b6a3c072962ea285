import { expect } from "chai";
import { networkHelpers } from "../helpers/programFixture.js";
import { ASSET_18, ASSET_24, HEARTBEAT, oracleFixture, stamp, UNCONFIGURED } from "./oracleFixture.js";

const { loadFixture, time } = networkHelpers;

describe("Oracle: prices (18-decimal prices, heartbeat, peg band)", () => {
  describe("getPrice", () => {
    it("getPrice_normalises8DecimalFeeds_to18Decimals", async () => {
      const p = await loadFixture(oracleFixture);
      expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
      await p.usdcFeed.setAnswer(123_456_789n);
      expect(await p.oracle.getPrice(p.usdc)).to.equal(1_234_567_890_000_000_000n);
    });

    it("getPrice_returns18DecimalFeedsUnchanged", async () => {
      const p = await loadFixture(oracleFixture);
      await p.feed18.setAnswer(999_999_999_999_999_999n);
      expect(await p.oracle.getPrice(ASSET_18)).to.equal(999_999_999_999_999_999n);
    });

    it("getPrice_truncates24DecimalFeeds_to18Decimals", async () => {
      const p = await loadFixture(oracleFixture);
      await p.feed24.setAnswer(1_000_000_123_456_789_012_345_678n);
      expect(await p.oracle.getPrice(ASSET_24)).to.equal(1_000_000_123_456_789_012n);
    });

    it("getPrice_revertsWith_FeedNotConfigured_forAnUnconfiguredAsset", async () => {
      const p = await loadFixture(oracleFixture);
      await expect(p.oracle.getPrice(UNCONFIGURED))
        .to.be.revertedWithCustomError(p.oracle, "FeedNotConfigured")
        .withArgs(UNCONFIGURED);
    });

    it("getPrice_revertsWith_InvalidPrice_forZeroAndNegativeAnswers", async () => {
      const p = await loadFixture(oracleFixture);
      const usdc = await p.usdc.getAddress();
      for (const answer of [0n, -1n, -100_000_000n]) {
        await p.usdcFeed.setAnswer(answer);
        await expect(p.oracle.getPrice(usdc))
          .to.be.revertedWithCustomError(p.oracle, "InvalidPrice")
          .withArgs(usdc, answer);
      }
    });

    it("getPrice_isFresh_atExactlyTheHeartbeat", async () => {
      const p = await loadFixture(oracleFixture);
      await stamp(p.usdcFeed, 100_000_000n, HEARTBEAT);
      expect(await p.oracle.getPrice(p.usdc)).to.equal(10n ** 18n);
    });

    it("getPrice_revertsWith_StalePrice_oneSecondPastTheHeartbeat", async () => {
      const p = await loadFixture(oracleFixture);
      const usdc = await p.usdc.getAddress();
      const updatedAt = await stamp(p.usdcFeed, 100_000_000n, HEARTBEAT + 1n);
      await expect(p.oracle.getPrice(usdc))
        .to.be.revertedWithCustomError(p.oracle, "StalePrice")
        .withArgs(usdc, updatedAt, HEARTBEAT);
    });

    it("getPrice_revertsWith_StalePrice_whenTimePassesWithoutAnUpdate", async () => {
      const p = await loadFixture(oracleFixture);
      await p.feed18.setAnswer(10n ** 18n);
      const updatedAt = BigInt(await time.latest());
      await time.increase(HEARTBEAT + 1n);
      await expect(p.oracle.getPrice(ASSET_18))
        .to.be.revertedWithCustomError(p.oracle, "StalePrice")
        .withArgs(ASSET_18, updatedAt, HEARTBEAT);
    });

    it("getPrice_revertsWith_StalePrice_forAFutureStamp", async () => {
      const p = await loadFixture(oracleFixture);
      const future = BigInt(await time.latest()) + 3600n;
      await p.usdcFeed.setAnswerAt(100_000_000n, future);
      await expect(p.oracle.getPrice(p.usdc))
        .to.be.revertedWithCustomError(p.oracle, "StalePrice")
        .withArgs(await p.usdc.getAddress(), future, HEARTBEAT);
    });

    it("getPrice_revertsWith_MalformedFeedResponse_whenTheFeedAnswersTooFewWords", async () => {
      const p = await loadFixture(oracleFixture);
      await p.usdcFeed.setMalformed(true);
      await expect(p.oracle.getPrice(p.usdc))
        .to.be.revertedWithCustomError(p.oracle, "MalformedFeedResponse")
        .withArgs(await p.usdc.getAddress(), await p.usdcFeed.getAddress());
    });

    it("getPrice_bubblesTheRevert_ofABrokenFeed", async () => {
      const p = await loadFixture(oracleFixture);
      await p.usdcFeed.setReverts(true);
      await expect(p.oracle.getPrice(p.usdc)).to.be.revertedWith("feed down");
    });
  });

  describe("isPegged (never reverts)", () => {
    it("isPegged_isTrue_insideTheBand_withInclusiveEdges", async () => {
      const p = await loadFixture(oracleFixture);
      for (const answer of [100_000_000n, 98_000_000n, 102_000_000n, 99_000_001n]) {
        await p.usdcFeed.setAnswer(answer);
        expect(await p.oracle.isPegged(p.usdc)).to.equal(true, `answer ${answer}`);
      }
    });

    it("isPegged_isFalse_outsideTheBand", async () => {
      const p = await loadFixture(oracleFixture);
      for (const answer of [97_999_999n, 102_000_001n, 50_000_000n, 200_000_000n]) {
        await p.usdcFeed.setAnswer(answer);
        expect(await p.oracle.isPegged(p.usdc)).to.equal(false, `answer ${answer}`);
      }
    });

    it("isPegged_comparesTheTruncated18DecimalPrice", async () => {
      const p = await loadFixture(oracleFixture);
      // 0.98 minus one 24-decimal unit truncates to 0.979999999999999999: below the band.
      await p.feed24.setAnswer(980_000_000_000_000_000_000_000n - 1n);
      expect(await p.oracle.isPegged(ASSET_24)).to.equal(false);
      // 1.02 plus a sub-18-decimal remainder truncates to exactly 1.02: inside.
      await p.feed24.setAnswer(1_020_000_000_000_000_000_000_000n + 999_999n);
      expect(await p.oracle.isPegged(ASSET_24)).to.equal(true);
    });

    it("isPegged_isFalse_whenStale_andTrue_atExactlyTheHeartbeat", async () => {
      const p = await loadFixture(oracleFixture);
      await stamp(p.usdcFeed, 100_000_000n, HEARTBEAT);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
      await stamp(p.usdcFeed, 100_000_000n, HEARTBEAT + 1n);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
    });

    it("isPegged_isFalse_forZeroOrNegativeAnswers", async () => {
      const p = await loadFixture(oracleFixture);
      for (const answer of [0n, -1n, -100_000_000n]) {
        await p.usdcFeed.setAnswer(answer);
        expect(await p.oracle.isPegged(p.usdc)).to.equal(false, `answer ${answer}`);
      }
    });

    it("isPegged_isFalse_forAnUnconfiguredAsset", async () => {
      const p = await loadFixture(oracleFixture);
      expect(await p.oracle.isPegged(UNCONFIGURED)).to.equal(false);
    });

    it("isPegged_isFalse_whenTheFeedReverts_andRecoversWithIt", async () => {
      const p = await loadFixture(oracleFixture);
      await p.usdcFeed.setReverts(true);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
      await p.usdcFeed.setReverts(false);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
    });

    it("isPegged_isFalse_forAFutureStamp_orAMalformedAnswer_neverReverting", async () => {
      const p = await loadFixture(oracleFixture);
      await p.usdcFeed.setAnswerAt(100_000_000n, BigInt(await time.latest()) + 3600n);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
      await p.usdcFeed.setAnswer(100_000_000n);
      await p.usdcFeed.setMalformed(true);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
      await p.usdcFeed.setMalformed(false);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
    });

    it("isPegged_isTrue_forEveryFeedDecimalsAtPar", async () => {
      const p = await loadFixture(oracleFixture);
      expect(await p.oracle.isPegged(p.usdc)).to.equal(true);
      expect(await p.oracle.isPegged(p.dai)).to.equal(true);
      expect(await p.oracle.isPegged(ASSET_18)).to.equal(true);
      expect(await p.oracle.isPegged(ASSET_24)).to.equal(true);
    });
  });
});
