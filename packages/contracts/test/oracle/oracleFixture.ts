import type { MockAggregatorV3 } from "../../types/ethers-contracts/index.js";
import { deployProgram, ethers, networkHelpers } from "../helpers/programFixture.js";

export const HEARTBEAT = 86_400n;
export const LOWER = ethers.parseUnits("0.98", 18);
export const UPPER = ethers.parseUnits("1.02", 18);
/** Assets the Oracle never calls: any non-zero address names one. */
export const ASSET_18 = ethers.getAddress("0x" + "a1".repeat(20));
export const ASSET_24 = ethers.getAddress("0x" + "a2".repeat(20));
export const UNCONFIGURED = ethers.getAddress("0x" + "a3".repeat(20));

export const feed = async (decimals: number, answer: bigint) =>
  (await ethers.deployContract("MockAggregatorV3", [decimals, answer])) as unknown as MockAggregatorV3;

/**
 * A program with an Oracle: USDC and DAI on 8-decimal feeds at 1.0 (band 0.98..1.02, heartbeat
 * one day), plus ASSET_18 on an 18-decimal feed and ASSET_24 on a 24-decimal feed, same band.
 */
export async function oracleFixture() {
  const p = await deployProgram({ withOracle: true });
  const oracle = p.oracle!;
  const feed18 = await feed(18, 10n ** 18n);
  const feed24 = await feed(24, 10n ** 24n);
  await oracle.connect(p.admin).setFeed(ASSET_18, feed18, HEARTBEAT, LOWER, UPPER);
  await oracle.connect(p.admin).setFeed(ASSET_24, feed24, HEARTBEAT, LOWER, UPPER);
  return { ...p, oracle, usdcFeed: p.usdcFeed!, feed18, feed24 };
}

/**
 * Stamps `answer` on `f` as `age` seconds old at the block that carries the stamp, so the
 * calls that follow (which read that block's timestamp) see exactly that age.
 */
export async function stamp(f: MockAggregatorV3, answer: bigint, age: bigint) {
  const now = BigInt(await networkHelpers.time.latest()) + 10n;
  await networkHelpers.time.setNextBlockTimestamp(now);
  await f.setAnswerAt(answer, now - age);
  return now - age;
}
