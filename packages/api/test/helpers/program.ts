import { NonceManager, type JsonRpcProvider } from "ethers";
import {
  CollateralVault__factory,
  Factory__factory,
  MockAggregatorV3__factory,
  MockStablecoin__factory,
  Oracle__factory,
  PSPVault__factory,
  Points__factory,
  ProgramFactory__factory,
} from "@points/contracts";
import type { NewProgram } from "../../src/index.js";
import { devWallet } from "./node.js";

/** Test actors: account 0 deploys releases and is the executor; 1 is the brand wallet. */
export function actors(provider: JsonRpcProvider) {
  const [executor, brand, alice, bob, carol, outsider] = [0, 1, 2, 3, 4, 5].map((i) => devWallet(i, provider));
  return { executor, brand, alice, bob, carol, outsider };
}

/** Options of {@link deployProgram}. */
export interface DeployOptions {
  /** An Oracle with an 8-decimal mock feed at 1.0, band 0.98..1.02, heartbeat 1 day. */
  withOracle?: boolean;
  /** Deploy on an existing release (ProgramFactory) and collateral instead of a new one. */
  release?: { programFactory: string; usdc: string };
}

/**
 * A release (implementations + ProgramFactory) and one program deployed by it in one
 * transaction, with a 6-decimal mock USDC as collateral. Returns the registry record.
 */
export async function deployProgram(provider: JsonRpcProvider, brandName = "acme", opts: DeployOptions = {}) {
  const { executor, brand } = actors(provider);
  const deploy: Deploy = async (f, ...args) => {
    const c = await f.deploy(...args);
    await c.waitForDeployment();
    return c.getAddress();
  };
  const e = Object.assign(new NonceManager(executor), { address: executor.address });
  const { usdc, pfAddr } = opts.release
    ? { usdc: opts.release.usdc, pfAddr: opts.release.programFactory }
    : await deployRelease(e, deploy);
  const pf = ProgramFactory__factory.connect(pfAddr, e);
  const params = {
    brand: brandName,
    tokenName: "Acme Points",
    tokenSymbol: "ACME",
    admin: brand.address,
    executor: e.address,
    adminDelay: 0,
    collateralAsset: usdc,
    oracleFeed: opts.withOracle
      ? await deploy(new MockAggregatorV3__factory(e), 8, 100_000_000n)
      : "0x0000000000000000000000000000000000000000",
    oracleHeartbeat: opts.withOracle ? 86_400 : 0,
    lowerPeg: opts.withOracle ? 980_000_000_000_000_000n : 0,
    upperPeg: opts.withOracle ? 1_020_000_000_000_000_000n : 0,
    feeReceiver: "0x0000000000000000000000000000000000000000",
    mintFeeBps: 0,
    redeemFeeBps: 0,
    redeemDelay: 3600,
  };
  const receipt = await (await pf.deployProgram(params)).wait();
  const p = await pf.programOf(brandName);
  const record: NewProgram = {
    chainId: "31337",
    brand: brandName,
    factory: p.factory,
    points: p.points,
    collateralVault: p.collateralVault,
    pspVault: p.pspVault,
    oracle: p.oracle === "0x0000000000000000000000000000000000000000" ? null : p.oracle,
    programFactory: pfAddr,
    deployTx: receipt!.hash,
    blockNumber: receipt!.blockNumber,
  };
  return { record, usdc, programFactory: pfAddr };
}

type Deploy = (
  f: { deploy(...a: unknown[]): Promise<{ waitForDeployment(): Promise<unknown>; getAddress(): Promise<string> }> },
  ...args: unknown[]
) => Promise<string>;

/** Mock USDC, the five implementations and a ProgramFactory over them. */
async function deployRelease(e: NonceManager & { address: string }, deploy: Deploy) {
  const usdc = await deploy(new MockStablecoin__factory(e), "USD Coin", "USDC", 6);
  const impls = {
    points: await deploy(new Points__factory(e)),
    factory: await deploy(new Factory__factory(e)),
    collateralVault: await deploy(new CollateralVault__factory(e)),
    pspVault: await deploy(new PSPVault__factory(e)),
    oracle: await deploy(new Oracle__factory(e)),
  };
  const pfAddr = await deploy(new ProgramFactory__factory(e), e.address, e.address, impls, "test");
  return { usdc, pfAddr };
}
