import { expect } from "chai";
import { ethers, networkHelpers, ROLES } from "../helpers/programFixture.js";
import { ASSET_18, feed, HEARTBEAT, LOWER, oracleFixture, UNCONFIGURED, UPPER } from "./oracleFixture.js";

const { loadFixture } = networkHelpers;

describe("Oracle: feed configuration (DEFAULT_ADMIN_ROLE configures feeds)", () => {
  describe("setFeed", () => {
    it("setFeed_byAdmin_storesConfig_andEmitsFeedConfigured", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(6, 1_000_000n);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, 3600, LOWER, UPPER))
        .to.emit(p.oracle, "FeedConfigured")
        .withArgs(UNCONFIGURED, await f.getAddress(), 3600n, LOWER, UPPER);
      expect(await p.oracle.feedOf(UNCONFIGURED)).to.deep.equal([await f.getAddress(), 3600n, 6n, LOWER, UPPER]);
    });

    it("setFeed_replacesAnExistingConfig", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(18, 10n ** 18n);
      await p.oracle.connect(p.admin).setFeed(p.usdc, f, 60, 1n, 2n * 10n ** 18n);
      expect(await p.oracle.feedOf(p.usdc)).to.deep.equal([await f.getAddress(), 60n, 18n, 1n, 2n * 10n ** 18n]);
    });

    it("setFeed_acceptsABandOfOnePrice_andFeedDecimalsFrom0To36", async () => {
      const p = await loadFixture(oracleFixture);
      const f0 = await feed(0, 1n);
      const f36 = await feed(36, 10n ** 36n);
      await p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f0, HEARTBEAT, 10n ** 18n, 10n ** 18n);
      expect((await p.oracle.feedOf(UNCONFIGURED)).feedDecimals).to.equal(0n);
      await p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f36, HEARTBEAT, 10n ** 18n, 10n ** 18n);
      expect((await p.oracle.feedOf(UNCONFIGURED)).feedDecimals).to.equal(36n);
      expect(await p.oracle.getPrice(UNCONFIGURED)).to.equal(10n ** 18n);
    });

    it("setFeed_revertsWhen_callerIsNotDefaultAdmin", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(8, 100_000_000n);
      await p.oracle.connect(p.admin).grantRole(ROLES.PAUSER, p.bob);
      for (const s of [p.bob, p.executor, p.alice, p.carol, p.outsider, p.feeReceiver]) {
        await expect(p.oracle.connect(s).setFeed(UNCONFIGURED, f, HEARTBEAT, LOWER, UPPER))
          .to.be.revertedWithCustomError(p.oracle, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.DEFAULT_ADMIN);
      }
      expect((await p.oracle.feedOf(UNCONFIGURED)).feed).to.equal(ethers.ZeroAddress);
    });

    it("setFeed_revertsWith_ZeroAddress_forAZeroAssetOrFeed", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(8, 100_000_000n);
      const o = p.oracle.connect(p.admin);
      await expect(o.setFeed(ethers.ZeroAddress, f, HEARTBEAT, LOWER, UPPER)).to.be.revertedWithCustomError(
        o,
        "ZeroAddress",
      );
      await expect(o.setFeed(UNCONFIGURED, ethers.ZeroAddress, HEARTBEAT, LOWER, UPPER)).to.be.revertedWithCustomError(
        o,
        "ZeroAddress",
      );
    });

    it("setFeed_revertsWith_InvalidHeartbeat_forZero", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(8, 100_000_000n);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, 0, LOWER, UPPER))
        .to.be.revertedWithCustomError(p.oracle, "InvalidHeartbeat")
        .withArgs(0n);
    });

    it("setFeed_revertsWith_InvalidPegBand_forAZeroLowerBound", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(8, 100_000_000n);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, HEARTBEAT, 0n, UPPER))
        .to.be.revertedWithCustomError(p.oracle, "InvalidPegBand")
        .withArgs(0n, UPPER);
    });

    it("setFeed_revertsWith_InvalidPegBand_forAnInvertedBand", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(8, 100_000_000n);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, HEARTBEAT, UPPER, LOWER))
        .to.be.revertedWithCustomError(p.oracle, "InvalidPegBand")
        .withArgs(UPPER, LOWER);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, HEARTBEAT, UPPER + 1n, UPPER))
        .to.be.revertedWithCustomError(p.oracle, "InvalidPegBand")
        .withArgs(UPPER + 1n, UPPER);
    });

    it("setFeed_revertsWith_InvalidFeedDecimals_above36", async () => {
      const p = await loadFixture(oracleFixture);
      const f = await feed(37, 10n ** 37n);
      await expect(p.oracle.connect(p.admin).setFeed(UNCONFIGURED, f, HEARTBEAT, LOWER, UPPER))
        .to.be.revertedWithCustomError(p.oracle, "InvalidFeedDecimals")
        .withArgs(37n);
    });
  });

  describe("removeFeed", () => {
    it("removeFeed_byAdmin_clearsConfig_andEmitsFeedRemoved", async () => {
      const p = await loadFixture(oracleFixture);
      await expect(p.oracle.connect(p.admin).removeFeed(p.usdc))
        .to.emit(p.oracle, "FeedRemoved")
        .withArgs(await p.usdc.getAddress());
      expect(await p.oracle.feedOf(p.usdc)).to.deep.equal([ethers.ZeroAddress, 0n, 0n, 0n, 0n]);
      await expect(p.oracle.getPrice(p.usdc))
        .to.be.revertedWithCustomError(p.oracle, "FeedNotConfigured")
        .withArgs(await p.usdc.getAddress());
      expect(await p.oracle.isPegged(p.usdc)).to.equal(false);
      // Other assets keep their feeds.
      expect(await p.oracle.getPrice(ASSET_18)).to.equal(10n ** 18n);
    });

    it("removeFeed_revertsWith_FeedNotConfigured_forAnUnconfiguredAsset", async () => {
      const p = await loadFixture(oracleFixture);
      await expect(p.oracle.connect(p.admin).removeFeed(UNCONFIGURED))
        .to.be.revertedWithCustomError(p.oracle, "FeedNotConfigured")
        .withArgs(UNCONFIGURED);
      await p.oracle.connect(p.admin).removeFeed(p.usdc);
      await expect(p.oracle.connect(p.admin).removeFeed(p.usdc))
        .to.be.revertedWithCustomError(p.oracle, "FeedNotConfigured")
        .withArgs(await p.usdc.getAddress());
    });

    it("removeFeed_revertsWhen_callerIsNotDefaultAdmin", async () => {
      const p = await loadFixture(oracleFixture);
      for (const s of [p.executor, p.alice, p.outsider]) {
        await expect(p.oracle.connect(s).removeFeed(p.usdc))
          .to.be.revertedWithCustomError(p.oracle, "AccessControlUnauthorizedAccount")
          .withArgs(s.address, ROLES.DEFAULT_ADMIN);
      }
      expect((await p.oracle.feedOf(p.usdc)).feed).to.equal(await p.usdcFeed.getAddress());
    });
  });
});
