import { AbiCoder, NonceManager, id, parseUnits, ZeroAddress, type JsonRpcProvider } from "ethers";
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
import type { ProgramLocation } from "@points/contracts/program";
import { devWallet } from "./keys.js";

/** Test actors: account 0 deploys releases and is the executor; 1 is the brand wallet. */
export function actors(provider: JsonRpcProvider) {
  return {
    executor: devWallet(0, provider),
    brand: devWallet(1, provider),
    alice: devWallet(2, provider),
    bob: devWallet(3, provider),
    carol: devWallet(4, provider),
    outsider: devWallet(5, provider),
  };
}

/** A deployed program as the API's registry stores it. */
export interface ProgramRecord extends ProgramLocation {
  programFactory: string;
  deployTx: string;
  blockNumber: number;
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
  const e = Object.assign(new NonceManager(executor), { address: executor.address });
  const { usdc, pfAddr } = opts.release
    ? { usdc: opts.release.usdc, pfAddr: opts.release.programFactory }
    : await deployRelease(e);
  const pf = ProgramFactory__factory.connect(pfAddr, e);
  const params = {
    brand: brandName,
    tokenName: "Acme Points",
    tokenSymbol: "ACME",
    admin: brand.address,
    executor: e.address,
    adminDelay: 0,
    collateralAsset: usdc,
    oracleFeed: opts.withOracle ? await deploy(new MockAggregatorV3__factory(e), 8, 100_000_000n) : ZeroAddress,
    oracleHeartbeat: opts.withOracle ? 86_400 : 0,
    lowerPeg: opts.withOracle ? 980_000_000_000_000_000n : 0,
    upperPeg: opts.withOracle ? 1_020_000_000_000_000_000n : 0,
    feeReceiver: ZeroAddress,
    mintFeeBps: 0,
    redeemFeeBps: 0,
    redeemDelay: 3600,
  };
  const receipt = await (await pf.deployProgram(params)).wait();
  const p = await pf.programOf(brandName);
  const record: ProgramRecord = {
    chainId: "31337",
    brand: brandName,
    factory: p.factory,
    points: p.points,
    collateralVault: p.collateralVault,
    pspVault: p.pspVault,
    oracle: p.oracle === ZeroAddress ? null : p.oracle,
    programFactory: pfAddr,
    deployTx: receipt!.hash,
    blockNumber: receipt!.blockNumber,
  };
  return { record, usdc, programFactory: pfAddr };
}

type Deployable = {
  deploy(...a: unknown[]): Promise<{ waitForDeployment(): Promise<unknown>; getAddress(): Promise<string> }>;
};

async function deploy(f: Deployable, ...args: unknown[]): Promise<string> {
  const c = await f.deploy(...args);
  await c.waitForDeployment();
  return c.getAddress();
}

/** Mock USDC, the five implementations and a ProgramFactory over them. */
async function deployRelease(e: NonceManager & { address: string }) {
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

/**
 * An active pSP campaign funded with `budgetSp` SP by the brand wallet (which holds every admin
 * role): the brand buys SP with mock USDC through the Factory, then creates the campaign.
 * Returns the campaign's label and bytes32 id. `metadata` as bytes is written as is, valid
 * UTF-8 or not, as any other client of the contract could.
 */
export async function fundedCampaign(
  provider: JsonRpcProvider,
  program: Pick<ProgramRecord, "factory" | "points" | "pspVault">,
  usdc: string,
  label = "launch",
  budgetSp = 1_000n,
  metadata: string | Uint8Array = "",
) {
  const { brand } = actors(provider);
  const signer = Object.assign(new NonceManager(brand), { address: brand.address });
  const send = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();
  const usdcAmount = parseUnits(budgetSp.toString(), 6);
  const factory = Factory__factory.connect(program.factory, signer);
  const points = Points__factory.connect(program.points, signer);
  const stable = MockStablecoin__factory.connect(usdc, signer);
  const vault = PSPVault__factory.connect(program.pspVault, signer);
  await send(factory.addToMintWhitelist(brand.address));
  await send(points.addToTransferWhitelist(brand.address));
  await send(stable.mint(brand.address, usdcAmount));
  await send(stable.approve(program.factory, usdcAmount));
  await send(factory.mint(usdc, usdcAmount, brand.address));
  const budget = parseUnits(budgetSp.toString(), 18);
  await send(points.approve(program.pspVault, budget));
  const campaignId = id(label);
  if (typeof metadata === "string") await send(vault.createCampaign(campaignId, budget, [], [], metadata));
  else {
    // The ABI encodes `string` and `bytes` alike: the selector is the string signature's.
    const args = AbiCoder.defaultAbiCoder().encode(
      ["bytes32", "uint256", "address[]", "address[]", "bytes"],
      [campaignId, budget, [], [], metadata],
    );
    const selector = vault.interface.getFunction("createCampaign")!.selector;
    await send(signer.sendTransaction({ to: program.pspVault, data: selector + args.slice(2) }));
  }
  return { label, campaignId };
}
