import { Contract, type Wallet } from "ethers";
import { startNode, type DevNode } from "@points/testkit";
import { deployProgram, loadArtifact, MemoryStore, type DeployConfig, type ProgramRecord } from "../../src/index.js";

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

/** A fresh node with "acme" deployed by wallet 0 (the executor) for wallet 1 (the brand). */
export async function deployAcme() {
  const node: DevNode = await startNode();
  const [executor, brand] = node.wallets;
  const store = new MemoryStore();
  const program = await deployProgram(config(brand), executor, store, { chain: CHAIN });
  return { node, executor, brand, store, program };
}

export function at(
  program: ProgramRecord,
  key: "points" | "factory" | "collateralVault" | "pspVault" | "oracle",
  runner: Wallet | Contract["runner"],
) {
  return new Contract(program.addresses[key]!, loadArtifact(program.contracts[key]!.artifact).abi, runner);
}

/** Mints `usdc` (6 decimals) worth of SP to `user` through the Factory, as a real user would. */
export async function mintSp(program: ProgramRecord, brand: Wallet, user: Wallet, usdc: bigint) {
  const factory = at(program, "factory", brand);
  const points = at(program, "points", brand);
  await (await factory.addToMintWhitelist(user.address)).wait();
  await (await points.addToTransferWhitelist(user.address)).wait();
  const asset = new Contract(program.collateralAsset, loadArtifact("MockStablecoin").abi, user);
  await (await asset.mint(user.address, usdc)).wait();
  await (await asset.approve(program.addresses.factory, usdc)).wait();
  await (await factory.connect(user).getFunction("mint")(program.collateralAsset, usdc, user.address)).wait();
}
