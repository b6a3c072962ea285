import { network } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { BaseContract } from "ethers";
import type {
  CollateralVault,
  Factory,
  MockAggregatorV3,
  MockStablecoin,
  Oracle,
  PSPVault,
  Points,
} from "../../types/ethers-contracts/index.js";

export const connection = await network.create();
export const { ethers, networkHelpers } = connection;

export const ADMIN_DELAY = 3 * 24 * 3600;
export const REDEEM_DELAY = 24 * 3600;
export const USDC = (n: number | string) => ethers.parseUnits(String(n), 6);
export const SP = (n: number | string) => ethers.parseUnits(String(n), 18);
export const ONE = 10n ** 18n;

export type Program = Awaited<ReturnType<typeof deployProgram>>;

/** Deploys `name` behind an ERC1967Proxy without initializing it (like ProgramFactory). */
export async function proxy<T extends BaseContract>(name: string): Promise<T> {
  const impl = await ethers.deployContract(name);
  const p = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
  return (await ethers.getContractAt(name, await p.getAddress())) as unknown as T;
}

export interface ProgramOptions {
  withOracle?: boolean;
  mintFeeBps?: number;
  redeemFeeBps?: number;
  /** Delay of every DEFAULT_ADMIN_ROLE handover; default ADMIN_DELAY. */
  adminDelay?: number;
}

/**
 * A whole program as docs/deployment.md#roles-at-birth describes: the brand's wallet (`admin`) holds every admin
 * role, `executor` holds EXECUTOR_ROLE only, the Factory mints, Factory and PSPVault are on the
 * transfer allowlist. Collateral is a 6-decimal stablecoin; an 18-decimal one is deployed too
 * (registered by tests that need it). With `withOracle`, both have feeds at 1.0 (8 decimals).
 */
export async function deployProgram(opts: ProgramOptions = {}) {
  const p = await deploy(opts, true);
  return { ...p, dai: p.dai!, daiVault: p.daiVault! };
}

/** The same program with USDC as its only collateral: no DAI, no DAI vault, no second feed. */
export const deployUsdcProgram = (opts: ProgramOptions = {}) => deploy(opts, false);

async function deploy(opts: ProgramOptions, withDai: boolean) {
  const [admin, executor, alice, bob, carol, dave, outsider, feeReceiver] = await ethers.getSigners();
  const adminDelay = opts.adminDelay ?? ADMIN_DELAY;
  const usdc = (await ethers.deployContract("MockStablecoin", ["USD Coin", "USDC", 6])) as unknown as MockStablecoin;
  const dai = withDai
    ? ((await ethers.deployContract("MockStablecoin", ["Dai", "DAI", 18])) as unknown as MockStablecoin)
    : undefined;

  const points = await proxy<Points>("Points");
  const factory = await proxy<Factory>("Factory");
  // The USDC vault as ProgramFactory makes it; the DAI vault as the Factory makes it (createVault).
  const vaultImplementation = await ethers.deployContract("CollateralVault");
  const vault = (await ethers.getContractAt(
    "CollateralVault",
    await (await ethers.deployContract("ProgramProxy", [vaultImplementation])).getAddress(),
  )) as unknown as CollateralVault;
  const psp = await proxy<PSPVault>("PSPVault");
  let oracle: Oracle | undefined;
  let usdcFeed: MockAggregatorV3 | undefined;
  let daiFeed: MockAggregatorV3 | undefined;
  if (opts.withOracle) {
    oracle = await proxy<Oracle>("Oracle");
    await oracle.initialize(admin.address, adminDelay, []);
    usdcFeed = (await ethers.deployContract("MockAggregatorV3", [8, 100_000_000n])) as unknown as MockAggregatorV3;
    if (dai)
      daiFeed = (await ethers.deployContract("MockAggregatorV3", [8, 100_000_000n])) as unknown as MockAggregatorV3;
    const band = [ethers.parseUnits("0.98", 18), ethers.parseUnits("1.02", 18)] as const;
    await oracle.setFeed(usdc, usdcFeed, 86_400, ...band);
    if (dai && daiFeed) await oracle.setFeed(dai, daiFeed, 86_400, ...band);
  }

  // As ProgramFactory does: the fee receiver is listed at birth when a fee is set.
  const hasFee = Boolean(opts.mintFeeBps || opts.redeemFeeBps);
  const whitelist = hasFee ? [factory, psp, feeReceiver] : [factory, psp];
  await points.initialize("Acme Points", "ACME", admin.address, adminDelay, factory, whitelist);
  await vault.initialize(usdc, factory, admin.address, adminDelay, "Acme USDC Vault", "aUSDC");
  await factory.initialize({
    admin: admin.address,
    adminDelay,
    points,
    executor: executor.address,
    oracle: oracle ?? ethers.ZeroAddress,
    asset: usdc,
    vault,
    feeReceiver: feeReceiver.address,
    mintFeeBps: opts.mintFeeBps ?? 0,
    redeemFeeBps: opts.redeemFeeBps ?? 0,
    redeemDelay: REDEEM_DELAY,
    vaultImplementation,
  });
  let daiVault: CollateralVault | undefined;
  if (dai) {
    await factory.createVault(dai, "Acme DAI Vault", "aDAI");
    daiVault = (await ethers.getContractAt(
      "CollateralVault",
      await factory.predictVault(dai),
    )) as unknown as CollateralVault;
  }
  await psp.initialize(admin.address, adminDelay, points);

  return {
    points,
    factory,
    vault,
    daiVault,
    psp,
    oracle,
    usdc,
    dai,
    usdcFeed,
    daiFeed,
    admin,
    executor,
    alice,
    bob,
    carol,
    dave,
    outsider,
    feeReceiver,
  };
}

/** Lists `who` everywhere, funds them with USDC and mints `amount` USDC worth of SP to them. */
export async function mintSp(p: Program, who: HardhatEthersSigner, usdcAmount: bigint) {
  await p.factory.connect(p.admin).addToMintWhitelist(who.address);
  await p.points.connect(p.admin).addToTransferWhitelist(who.address);
  await p.usdc.mint(who.address, usdcAmount);
  await p.usdc.connect(who).approve(p.factory, usdcAmount);
  await p.factory.connect(who).mint(p.usdc, usdcAmount, who.address);
}

export const role = (name: string) => ethers.id(name);
export const ROLES = {
  DEFAULT_ADMIN: ethers.ZeroHash,
  PAUSER: role("PAUSER_ROLE"),
  MINTER: role("MINTER_ROLE"),
  MANAGER: role("MANAGER_ROLE"),
  EXECUTOR: role("EXECUTOR_ROLE"),
  CAMPAIGN_ADMIN: role("CAMPAIGN_ADMIN_ROLE"),
  ISSUING_ADMIN: role("ISSUING_ADMIN_ROLE"),
  SETTLEMENT_ADMIN: role("SETTLEMENT_ADMIN_ROLE"),
  TRANSFER_ADMIN: role("TRANSFER_ADMIN_ROLE"),
} as const;
