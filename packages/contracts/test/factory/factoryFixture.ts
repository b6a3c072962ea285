import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { AddressLike, ContractTransactionResponse } from "ethers";
import type { CollateralVault, Factory, MockStablecoin } from "../../types/ethers-contracts/index.js";
import type { IFactory } from "../../types/ethers-contracts/factory/Factory.js";
import { ADMIN_DELAY, ethers, type Program, USDC } from "../helpers/programFixture.js";

/** An 8-decimal feed answer for a decimal price string ("0.99"). */
export const feedPrice = (price: string) => ethers.parseUnits(price, 8);

/** DAI amounts (18 decimals). */
export const DAI = (n: number | string) => ethers.parseUnits(String(n), 18);

/** Request status values of IFactory.RedeemStatus. */
export const Status = { None: 0n, Pending: 1n, Finalized: 2n, Cancelled: 3n, Rejected: 4n } as const;

/**
 * A CollateralVault proxy over `asset` naming `factory`: made by the program's Factory
 * (createVault, the only vault registerAsset accepts) when `factory` is it, else by hand.
 */
export async function deployVault(p: Program, asset: AddressLike, factory: AddressLike, symbol = "aX") {
  if (ethers.getAddress(await ethers.resolveAddress(factory)) === (await p.factory.getAddress())) {
    await p.factory.connect(p.admin).createVault(asset, `Vault ${symbol}`, symbol);
    const at = await p.factory.predictVault(asset);
    return (await ethers.getContractAt("CollateralVault", at)) as unknown as CollateralVault;
  }
  const impl = await ethers.deployContract("CollateralVault");
  const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
  const vault = (await ethers.getContractAt("CollateralVault", await proxy.getAddress())) as unknown as CollateralVault;
  await vault.initialize(asset, factory, p.admin.address, ADMIN_DELAY, `Vault ${symbol}`, symbol);
  return vault;
}

/** Factory.initialize's parameters for a bare Factory of `p`'s Points: no asset, oracle or fee. */
export const bareInitParams = (p: Program, overrides: Partial<IFactory.InitParamsStruct> = {}) => ({
  admin: p.admin.address,
  adminDelay: 0,
  points: p.points,
  executor: p.executor.address,
  oracle: ethers.ZeroAddress,
  asset: ethers.ZeroAddress,
  vault: ethers.ZeroAddress,
  feeReceiver: p.admin.address,
  mintFeeBps: 0,
  redeemFeeBps: 0,
  redeemDelay: 0,
  vaultImplementation: ethers.ZeroAddress,
  ...overrides,
});

/** A Factory proxy over a fresh implementation, not initialized yet. */
export async function freshFactory() {
  const impl = await ethers.deployContract("Factory");
  const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
  return (await ethers.getContractAt("Factory", await proxy.getAddress())) as unknown as Factory;
}

/** A fresh stablecoin with `decimals`. */
export async function deployToken(decimals: number, symbol = "TKN") {
  return (await ethers.deployContract("MockStablecoin", [symbol, symbol, decimals])) as unknown as MockStablecoin;
}

/** The fixture's DAI registered with its daiVault. */
export async function registerDai(p: Program) {
  await p.factory.connect(p.admin).registerAsset(p.dai, p.daiVault);
}

/** Puts `who` on the mint allowlist and the Points transfer allowlist. */
export async function allowMinter(p: Program, who: HardhatEthersSigner) {
  await p.factory.connect(p.admin).addToMintWhitelist(who.address);
  await p.points.connect(p.admin).addToTransferWhitelist(who.address);
}

/** Mints `amount` of `token` to `who` and approves the Factory for it. */
/** DAI registered; alice may mint and holds 10,000 USDC and 10,000 DAI approved to the Factory. */
export async function aliceReadyToMint(p: Program) {
  await registerDai(p);
  await allowMinter(p, p.alice);
  await fund(p, p.usdc, p.alice, USDC(10_000));
  await fund(p, p.dai, p.alice, DAI(10_000));
}

export async function fund(p: Program, token: MockStablecoin, who: HardhatEthersSigner, amount: bigint) {
  await token.mint(who.address, amount);
  await token.connect(who).approve(p.factory, amount);
}

/** Lists `who` to mint and hold SP, funds it and mints `amount` of `token` to itself. */
export async function mintWith(p: Program, token: MockStablecoin, who: HardhatEthersSigner, amount: bigint) {
  await allowMinter(p, who);
  await fund(p, token, who, amount);
  await p.factory.connect(who).mint(token, amount, who.address);
}

/** Puts `who` on the redeem allowlist and approves the Factory for `amount` SP. */
export async function allowRedeemer(p: Program, who: HardhatEthersSigner, amount: bigint) {
  await p.factory.connect(p.admin).addToRedeemWhitelist(who.address);
  await p.points.connect(who).approve(p.factory, amount);
}

/** The request id a transaction's RedeemRequested event carries. */
export async function requestIdOf(tx: Promise<ContractTransactionResponse>, p: Program): Promise<bigint> {
  const receipt = await (await tx).wait();
  for (const log of receipt!.logs) {
    const parsed = p.factory.interface.parseLog(log);
    if (parsed?.name === "RedeemRequested") return parsed.args.requestId as bigint;
  }
  throw new Error("no RedeemRequested event");
}

/** How many `eventName` events of the Factory a mined transaction emitted. */
export async function countEvents(p: Program, tx: ContractTransactionResponse, eventName: string) {
  const receipt = await tx.wait();
  return receipt!.logs.filter((log) => p.factory.interface.parseLog(log)?.name === eventName).length;
}

/**
 * The backing invariant (docs/rules.md#factory): with every asset at 1.0, the normalised collateral the Factory can
 * withdraw from its vaults is at least the SP total supply. Checks every registered asset.
 */
export async function expectBacked(p: Program) {
  let backing = 0n;
  for (const asset of await p.factory.assets()) {
    const token = await ethers.getContractAt("MockStablecoin", asset);
    const vault = await ethers.getContractAt("CollateralVault", await p.factory.vaultOf(asset));
    backing += (await vault.maxWithdraw(p.factory)) * 10n ** (18n - (await token.decimals()));
  }
  expect(backing >= (await p.points.totalSupply()), "backing invariant").to.equal(true);
}

/** Asserts `tx` reverts with RedeemRequestNotPending(id, status): the request exists but is settled. */
export async function expectNotPending(p: Program, tx: Promise<unknown>, id: bigint, status: bigint) {
  await expect(tx).to.be.revertedWithCustomError(p.factory, "RedeemRequestNotPending").withArgs(id, status);
}

/** Asserts `tx` reverts with RedeemRequestNotFound(id). */
export async function expectNotFound(p: Program, tx: Promise<unknown>, id: bigint) {
  await expect(tx).to.be.revertedWithCustomError(p.factory, "RedeemRequestNotFound").withArgs(id);
}
