import hre from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import type {
  CollateralVault,
  Factory,
  MockStablecoin,
  Oracle,
  PSPVault,
  Points,
} from "../../types/ethers-contracts/index.js";
import { ADMIN_DELAY, connection, ethers, REDEEM_DELAY, ROLES, SP, USDC } from "../helpers/programFixture.js";

/** OpenZeppelin's upgrades API on the same network connection as every other test. */
export const up = await upgrades(hre, connection);

export const CAMPAIGN = ethers.id("launch-campaign");
export const NAMES = ["Points", "Factory", "CollateralVault", "PSPVault", "Oracle"] as const;
export type Name = (typeof NAMES)[number];

/**
 * A whole program deployed the way the upgrade tooling deploys it (`deployProxy`, kind uups),
 * then given state worth keeping across an upgrade: alice minted SP(1000) through the Factory
 * (so the vault holds USDC and the Factory its shares), SP(100) funds a campaign on the
 * PSPVault and bob holds SP(40) of its pSP; the Oracle prices USDC; fees and delays are set.
 */
export async function upgradesFixture() {
  const [admin, executor, alice, bob, outsider, feeReceiver] = await ethers.getSigners();
  const deploy = async (name: Name, args: unknown[]) =>
    up.deployProxy(await ethers.getContractFactory(name, admin), args, { kind: "uups" });

  const usdc = (await ethers.deployContract("MockStablecoin", ["USD Coin", "USDC", 6])) as unknown as MockStablecoin;
  const usdcFeed = await ethers.deployContract("MockAggregatorV3", [8, 100_000_000n]);
  const oracle = (await deploy("Oracle", [admin.address, ADMIN_DELAY, []])) as unknown as Oracle;
  await oracle.setFeed(usdc, usdcFeed, 86_400, ethers.parseUnits("0.98", 18), ethers.parseUnits("1.02", 18));

  // The Factory does not exist yet: the admin is the minter until the Factory takes over.
  const points = (await deploy("Points", [
    "Acme Points",
    "ACME",
    admin.address,
    ADMIN_DELAY,
    admin.address,
    [feeReceiver.address],
  ])) as unknown as Points;
  const factory = (await deploy("Factory", [
    {
      admin: admin.address,
      adminDelay: ADMIN_DELAY,
      points: await points.getAddress(),
      executor: executor.address,
      oracle: await oracle.getAddress(),
      asset: ethers.ZeroAddress,
      vault: ethers.ZeroAddress,
      feeReceiver: feeReceiver.address,
      mintFeeBps: 0,
      redeemFeeBps: 25,
      redeemDelay: REDEEM_DELAY,
      vaultImplementation: await (await ethers.deployContract("CollateralVault")).getAddress(),
    },
  ])) as unknown as Factory;
  // registerAsset takes only a vault the Factory made; the plugin adopts its proxy for upgrades.
  await factory.createVault(usdc, "Acme USDC Vault", "aUSDC");
  const vaultFactory = await ethers.getContractFactory("CollateralVault", admin);
  const vault = (await up.forceImport(await factory.predictVault(usdc), vaultFactory, {
    kind: "uups",
  })) as unknown as CollateralVault;
  const psp = (await deploy("PSPVault", [
    admin.address,
    ADMIN_DELAY,
    await points.getAddress(),
  ])) as unknown as PSPVault;

  await factory.registerAsset(usdc, vault);
  await points.grantRole(ROLES.MINTER, factory);
  await points.revokeRole(ROLES.MINTER, admin);
  for (const a of [factory, psp, alice]) await points.addToTransferWhitelist(a);
  await factory.addToMintWhitelist(alice);

  await usdc.mint(alice, USDC(1000));
  await usdc.connect(alice).approve(factory, USDC(1000));
  await factory.connect(alice).mint(usdc, USDC(1000), alice);
  // SP sent to the PSPVault funds the next campaign created there.
  await points.connect(alice).transfer(psp, SP(100));
  await psp.createCampaign(CAMPAIGN, SP(100), [bob.address], [], "launch");
  await psp.mint(CAMPAIGN, bob, SP(40), "welcome");

  const contracts: Record<Name, Points | Factory | CollateralVault | PSPVault | Oracle> = {
    Points: points,
    Factory: factory,
    CollateralVault: vault,
    PSPVault: psp,
    Oracle: oracle,
  };
  return {
    up,
    admin,
    executor,
    alice,
    bob,
    outsider,
    feeReceiver,
    usdc,
    usdcFeed,
    contracts,
    points,
    factory,
    vault,
    psp,
    oracle,
  };
}
