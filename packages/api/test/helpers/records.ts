import { Wallet } from "ethers";
import type { NewProgram } from "../../src/index.js";

/** A registry record with fresh random addresses: registry tests need no chain. */
export function programRecord(brand: string, overrides: Partial<NewProgram> = {}): NewProgram {
  const addr = () => Wallet.createRandom().address;
  return {
    chainId: "31337",
    brand,
    factory: addr(),
    points: addr(),
    collateralVault: addr(),
    pspVault: addr(),
    oracle: null,
    programFactory: addr(),
    deployTx: `0x${"ab".repeat(32)}`,
    blockNumber: 12_345_678,
    ...overrides,
  };
}

/**
 * A registry record at fixed made-up addresses (no code behind them, no deployment), for
 * routes that must fail before or at their first chain call.
 */
export function placeholderProgram(chainId = "31337", brand = "acme", factoryByte = "11"): NewProgram {
  return {
    chainId,
    brand,
    factory: "0x" + factoryByte.repeat(20),
    points: "0x" + "22".repeat(20),
    collateralVault: "0x" + "33".repeat(20),
    pspVault: "0x" + "44".repeat(20),
    oracle: null,
    programFactory: null,
    deployTx: null,
    blockNumber: null,
  };
}
