/**
 * The deploy command's program config: a JSON file (--config) overlaid with flags. Only the
 * shape and number syntax are checked here; the library validates the values (brand rules,
 * zero addresses, fee limits) and names the field it refuses.
 */
import { readFileSync } from "node:fs";
import { parseUnits } from "ethers";
import type { deployProgram } from "@points/deployer";
import { CliError } from "./errors.js";

export type DeployConfig = Parameters<typeof deployProgram>[0];

export interface DeployFlags {
  config?: string;
  brand?: string;
  tokenName?: string;
  tokenSymbol?: string;
  deployer?: string;
  collateral?: string;
  oracleFeed?: string;
  oracleHeartbeat?: string;
  lowerPeg?: string;
  upperPeg?: string;
  feeReceiver?: string;
  mintFeeBps?: string;
  redeemFeeBps?: string;
  redeemDelay?: string;
  adminDelay?: string;
}

type Raw = Record<string, unknown>;

function int(field: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : Number(String(v));
  if (!Number.isSafeInteger(n) || n < 0) throw new CliError(`${field} must be a non-negative integer, got "${v}"`);
  return n;
}

/** A peg bound: "0.98" (price, 18 decimals) or an integer already scaled to 18 decimals. */
function peg(field: string, v: unknown): bigint | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  try {
    return /^\d+$/.test(s) && s.length > 6 ? BigInt(s) : parseUnits(s, 18);
  } catch {
    throw new CliError(`${field} must be a price like 0.98, got "${s}"`);
  }
}

function readConfigFile(file: string): Raw {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(`cannot read --config ${file}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Raw;
  } catch (e) {
    throw new CliError(`--config ${file} is not a JSON object: ${(e as Error).message}`);
  }
}

const str = (v: unknown) => (v === undefined ? undefined : String(v));

/** Builds the library config from the file (if any) and the flags (which win). */
export function deployConfig(f: DeployFlags): DeployConfig {
  const file = f.config ? readConfigFile(f.config) : {};
  const fileOracle = (file.oracle ?? {}) as Raw;
  const pick = (flag: unknown, key: string, from: Raw = file) => (flag !== undefined ? flag : from[key]);

  const feed = str(pick(f.oracleFeed, "feed", fileOracle));
  const oracle = feed
    ? {
        feed,
        heartbeat: int("oracle heartbeat", pick(f.oracleHeartbeat, "heartbeat", fileOracle)) ?? 86_400,
        lowerPeg: peg("lower peg", pick(f.lowerPeg, "lowerPeg", fileOracle)) ?? parseUnits("0.98", 18),
        upperPeg: peg("upper peg", pick(f.upperPeg, "upperPeg", fileOracle)) ?? parseUnits("1.02", 18),
      }
    : undefined;

  const config = {
    brand: str(pick(f.brand, "brand")),
    tokenName: str(pick(f.tokenName, "tokenName")),
    tokenSymbol: str(pick(f.tokenSymbol, "tokenSymbol")),
    deployer: str(pick(f.deployer, "deployer")),
    collateralAsset: str(pick(f.collateral, "collateralAsset")),
    oracle,
    feeReceiver: str(pick(f.feeReceiver, "feeReceiver")),
    mintFeeBps: int("mint fee (bps)", pick(f.mintFeeBps, "mintFeeBps")),
    redeemFeeBps: int("redeem fee (bps)", pick(f.redeemFeeBps, "redeemFeeBps")),
    redeemDelay: int("redeem delay (seconds)", pick(f.redeemDelay, "redeemDelay")),
    adminDelay: int("admin delay (seconds)", pick(f.adminDelay, "adminDelay")),
  };
  for (const [field, flag] of [
    ["brand", "--brand"],
    ["tokenName", "--token-name"],
    ["tokenSymbol", "--token-symbol"],
    ["deployer", "--deployer"],
  ] as const) {
    if (!config[field]) throw new CliError(`missing ${flag} (or "${field}" in --config)`, "INVALID_CONFIG");
  }
  // Drop unset optionals so the library's defaults apply.
  const clean = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return clean as unknown as DeployConfig;
}
