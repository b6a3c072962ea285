import type { ContractTransactionReceipt, Signer } from "ethers";
import type {
  CollateralVault,
  Factory,
  MockAggregatorV3,
  MockStablecoin,
  Oracle,
  PSPVault,
  Points,
  ProgramFactory,
} from "../../types/ethers-contracts/index.js";
import type { IProgramFactory } from "../../types/ethers-contracts/deploy/ProgramFactory.js";
import { ethers } from "./programFixture.js";

export const OPERATOR_ROLE = ethers.id("OPERATOR_ROLE");
export const RELEASE_VERSION = "1.0.0";
export const BRAND = "acme";
export const ADMIN_DELAY = 3n * 24n * 3600n;
export const HEARTBEAT = 86_400n;
export const LOWER_PEG = ethers.parseUnits("0.98", 18);
export const UPPER_PEG = ethers.parseUnits("1.02", 18);
export const REDEEM_DELAY = 24n * 3600n;
/** keccak256(bytes(brand)), the ProgramFactory's key for a brand. */
export const brandHash = (brand: string) => ethers.id(brand);
/** bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1). */
export const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

export type DeployParams = IProgramFactory.DeployParamsStruct;
export type Release = Awaited<ReturnType<typeof releaseFixture>>;

/**
 * A release on a chain: the five shared implementations and a ProgramFactory whose operator
 * is the service's executor, plus the collateral and feed a brand brings. `otherPf` is a second
 * release run by another executor (`otherOperator`), to show operators are per factory.
 */
export async function releaseFixture() {
  const [operatorAdmin, operator, brandWallet, otherOperator, outsider, feeReceiver] = await ethers.getSigners();
  const impls = {
    points: (await ethers.deployContract("Points")) as unknown as Points,
    factory: (await ethers.deployContract("Factory")) as unknown as Factory,
    collateralVault: (await ethers.deployContract("CollateralVault")) as unknown as CollateralVault,
    pspVault: (await ethers.deployContract("PSPVault")) as unknown as PSPVault,
    oracle: (await ethers.deployContract("Oracle")) as unknown as Oracle,
  };
  const implAddresses = Object.fromEntries(
    await Promise.all(Object.entries(impls).map(async ([key, c]) => [key, await c.getAddress()])),
  ) as Record<keyof typeof impls, string>;
  const programFactory = async (operatorAddress: string) =>
    (await ethers.deployContract("ProgramFactory", [
      operatorAdmin.address,
      operatorAddress,
      implAddresses,
      RELEASE_VERSION,
    ])) as unknown as ProgramFactory;
  const pf = await programFactory(operator.address);
  const otherPf = await programFactory(otherOperator.address);
  const usdc = (await ethers.deployContract("MockStablecoin", ["USD Coin", "USDC", 6])) as unknown as MockStablecoin;
  const feed = (await ethers.deployContract("MockAggregatorV3", [8, 100_000_000n])) as unknown as MockAggregatorV3;
  return {
    pf,
    otherPf,
    impls,
    implAddresses,
    usdc,
    feed,
    operatorAdmin,
    operator,
    brandWallet,
    otherOperator,
    outsider,
    feeReceiver,
  };
}

/** Parameters of a valid program for `brand` (no Oracle, no fees) with `overrides` applied. */
export async function paramsFor(r: Release, overrides: Partial<DeployParams> = {}): Promise<DeployParams> {
  return {
    brand: BRAND,
    tokenName: "Acme Points",
    tokenSymbol: "ACME",
    admin: r.brandWallet.address,
    executor: r.operator.address,
    adminDelay: ADMIN_DELAY,
    collateralAsset: await r.usdc.getAddress(),
    oracleFeed: ethers.ZeroAddress,
    oracleHeartbeat: 0,
    lowerPeg: 0,
    upperPeg: 0,
    feeReceiver: ethers.ZeroAddress,
    mintFeeBps: 0,
    redeemFeeBps: 0,
    redeemDelay: REDEEM_DELAY,
    ...overrides,
  };
}

/** The Oracle part of the parameters: the brand's feed at 1.0, band 0.98..1.02, 1-day heartbeat. */
export async function oracleParams(r: Release): Promise<Partial<DeployParams>> {
  return {
    oracleFeed: await r.feed.getAddress(),
    oracleHeartbeat: HEARTBEAT,
    lowerPeg: LOWER_PEG,
    upperPeg: UPPER_PEG,
  };
}

/** Deploys a program through `r.pf` as the operator; returns its typed contracts and the receipt. */
export async function deployThrough(r: Release, params: DeployParams) {
  const tx = await r.pf.connect(r.operator).deployProgram(params);
  const receipt = (await tx.wait()) as ContractTransactionReceipt;
  const addresses = await r.pf.programOf(params.brand);
  return { tx, receipt, addresses, ...(await attach(addresses)) };
}

/** Typed handles on a program's proxies (`oracle` undefined when the program has none). */
export async function attach(a: IProgramFactory.ProgramStructOutput) {
  return {
    points: (await ethers.getContractAt("Points", a.points)) as unknown as Points,
    factory: (await ethers.getContractAt("Factory", a.factory)) as unknown as Factory,
    vault: (await ethers.getContractAt("CollateralVault", a.collateralVault)) as unknown as CollateralVault,
    psp: (await ethers.getContractAt("PSPVault", a.pspVault)) as unknown as PSPVault,
    oracle:
      a.oracle === ethers.ZeroAddress
        ? undefined
        : ((await ethers.getContractAt("Oracle", a.oracle)) as unknown as Oracle),
  };
}

/** The five addresses of a Program struct, in struct order. */
export const asTuple = (a: IProgramFactory.ProgramStructOutput) =>
  [a.points, a.factory, a.collateralVault, a.pspVault, a.oracle] as const;

/** The program's contracts (proxies or the bare implementations), each with `initialize`. */
interface Initializable {
  points: Points;
  collateralVault: CollateralVault;
  oracle: Oracle;
  pspVault: PSPVault;
  factory: Factory;
}

/**
 * One `initialize` call per contract with throwaway values (`account` everywhere an address
 * goes, the Factory's admin and executor `factoryAdmin`), sent by `signer` (the Factory's by
 * `factorySigner`): each must revert InvalidInitialization.
 */
export function initializeCalls(
  c: Initializable,
  o: { signer: Signer; factorySigner?: Signer; asset: string; account: string; factoryAdmin?: string },
) {
  const a = o.account;
  const admin = o.factoryAdmin ?? a;
  return [
    () => c.points.connect(o.signer).initialize("X", "X", a, 0, a, []),
    () => c.collateralVault.connect(o.signer).initialize(o.asset, a, a, 0, "X", "X"),
    () => c.oracle.connect(o.signer).initialize(a, 0, []),
    () => c.pspVault.connect(o.signer).initialize(a, 0, a),
    () =>
      c.factory.connect(o.factorySigner ?? o.signer).initialize({
        admin,
        adminDelay: 0,
        points: a,
        executor: admin,
        oracle: ethers.ZeroAddress,
        asset: ethers.ZeroAddress,
        vault: ethers.ZeroAddress,
        feeReceiver: a,
        mintFeeBps: 0,
        redeemFeeBps: 0,
        redeemDelay: 0,
        vaultImplementation: ethers.ZeroAddress,
      }),
  ];
}
