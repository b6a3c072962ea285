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
