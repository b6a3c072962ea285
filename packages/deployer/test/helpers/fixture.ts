import type { Wallet } from "ethers";
import type { DeployConfig } from "../../src/index.js";

export const CHAIN = { chainId: 31337n, name: "hardhat", dev: true };

/** A valid config: brand wallet `deployer`, mock collateral, no fee. */
export function config(deployer: Wallet, overrides: Partial<DeployConfig> = {}): DeployConfig {
  return {
    brand: "acme",
    tokenName: "Acme Points",
    tokenSymbol: "ACME",
    collateralAsset: "mock",
    deployer: deployer.address,
    redeemDelay: 24 * 3600,
    adminDelay: 0,
    ...overrides,
  };
}
