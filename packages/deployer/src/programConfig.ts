import { getAddress, isAddress, ZeroAddress } from "ethers";
import { isDevChain, type ChainInfo } from "./chain.js";
import { invalidConfig } from "./errors.js";
import type { ProgramConfigRecord } from "./types.js";

/** What a program is deployed with (the onboarding form, the CLI's flags). */
export interface DeployConfig {
  /** Lowercase letters and digits, 1 to 32; once per chain. */
  brand: string;
  tokenName: string;
  tokenSymbol: string;
  /** An existing ERC-20, or "mock" on a dev chain (a fresh 6-decimal MockStablecoin). Default: "mock" on a dev chain. */
  collateralAsset?: string;
  /** An AggregatorV3 feed for the collateral; without it every asset is priced 1.0. Pegs have 18 decimals. */
  oracle?: { feed: string; heartbeat: number; lowerPeg: bigint | string; upperPeg: bigint | string };
  /** The brand's wallet: every admin role of the program. */
  deployer: string;
  /** Receives fees (default: the deployer wallet). */
  feeReceiver?: string;
  mintFeeBps?: number;
  redeemFeeBps?: number;
  /** Seconds before a requester may finalize a redemption alone (default 0, at most 30 days). */
  redeemDelay?: number;
  /** Seconds of the two-step admin transfer delay (default 0 on dev chains, 2 days elsewhere). */
  adminDelay?: number;
  /**
   * Whether the executor gets EXECUTOR_ROLE on the Factory at birth (default true). False for a
   * program whose redemption desk is off: nobody holds it until a MANAGER_ROLE holder grants it.
   */
  executorRole?: boolean;
}

export const BRAND_PATTERN = /^[a-z0-9]{1,32}$/;
export const MAX_FEE_BPS = 1_000;
export const MAX_REDEEM_DELAY = 30 * 24 * 3600;
const MAX_UINT48 = 2 ** 48 - 1;
const MAX_UINT32 = 2 ** 32 - 1;
const MAX_UINT128 = (1n << 128n) - 1n;

export function assertBrand(brand: unknown): asserts brand is string {
  if (typeof brand !== "string" || !BRAND_PATTERN.test(brand)) {
    throw invalidConfig("brand", "must be 1 to 32 lowercase letters or digits", brand);
  }
}

function address(field: string, value: unknown): string {
  if (typeof value !== "string" || !isAddress(value)) throw invalidConfig(field, "is not an address", value);
  if (value.toLowerCase() === ZeroAddress) throw invalidConfig(field, "must not be the zero address", value);
  return getAddress(value);
}

function integer(field: string, value: unknown, min: number, max: number, why: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidConfig(field, why, value);
  }
  return value;
}

function text(field: string, value: unknown, max: number): string {
  if (typeof value !== "string" || value.trim().length === 0 || value.length > max) {
    throw invalidConfig(field, `must be 1 to ${max} characters`, value);
  }
  return value;
}

function peg(field: string, value: unknown): bigint {
  try {
    const v = BigInt(value as bigint | string);
    if (v > 0n && v <= MAX_UINT128) return v;
  } catch {
    // reported below
  }
  throw invalidConfig(field, "must be a positive integer with 18 decimals (1.0 = 10^18)", value);
}

/**
 * Every check that needs no chain: the `validate` stage runs this first, so a bad config is
 * refused before any transaction with a message naming the field.
 */
export function normalizeConfig(config: DeployConfig, chain: ChainInfo): ProgramConfigRecord {
  if (config === null || typeof config !== "object") throw invalidConfig("config", "must be an object", config);
  assertBrand(config.brand);
  const deployer = address("deployer", config.deployer);
  const dev = isDevChain(chain);
  const collateral = config.collateralAsset ?? (dev ? "mock" : undefined);
  if (collateral === undefined) throw invalidConfig("collateralAsset", "is required on a non-dev chain");
  if (collateral === "mock" && !dev) {
    throw invalidConfig("collateralAsset", '"mock" is only allowed on a dev chain', collateral);
  }
  if (config.executorRole !== undefined && typeof config.executorRole !== "boolean") {
    throw invalidConfig("executorRole", "must be true or false", config.executorRole);
  }
  const record: ProgramConfigRecord = {
    ...(config.executorRole === false ? { executorRole: false } : {}),
    brand: config.brand,
    tokenName: text("tokenName", config.tokenName, 64),
    tokenSymbol: text("tokenSymbol", config.tokenSymbol, 16),
    collateralAsset: collateral === "mock" ? "mock" : address("collateralAsset", collateral),
    deployer,
    feeReceiver: config.feeReceiver === undefined ? deployer : address("feeReceiver", config.feeReceiver),
    mintFeeBps: integer(
      "mintFeeBps",
      config.mintFeeBps ?? 0,
      0,
      MAX_FEE_BPS,
      `must be an integer from 0 to ${MAX_FEE_BPS}`,
    ),
    redeemFeeBps: integer(
      "redeemFeeBps",
      config.redeemFeeBps ?? 0,
      0,
      MAX_FEE_BPS,
      `must be an integer from 0 to ${MAX_FEE_BPS}`,
    ),
    redeemDelay: integer(
      "redeemDelay",
      config.redeemDelay ?? 0,
      0,
      MAX_REDEEM_DELAY,
      `must be whole seconds from 0 to ${MAX_REDEEM_DELAY} (30 days)`,
    ),
    adminDelay: integer(
      "adminDelay",
      config.adminDelay ?? (dev ? 0 : 2 * 24 * 3600),
      0,
      MAX_UINT48,
      "must be whole seconds (uint48)",
    ),
  };
  if (config.oracle !== undefined) {
    const o = config.oracle;
    const lowerPeg = peg("oracle.lowerPeg", o.lowerPeg);
    const upperPeg = peg("oracle.upperPeg", o.upperPeg);
    if (lowerPeg > upperPeg) throw invalidConfig("oracle.lowerPeg", "must not be above oracle.upperPeg", o.lowerPeg);
    record.oracle = {
      feed: address("oracle.feed", o.feed),
      heartbeat: integer("oracle.heartbeat", o.heartbeat, 1, MAX_UINT32, "must be whole seconds from 1 (uint32)"),
      lowerPeg: lowerPeg.toString(),
      upperPeg: upperPeg.toString(),
    };
  }
  return record;
}
