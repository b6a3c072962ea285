import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";
import type { BaseContract } from "ethers";
import type {
  CollateralVault,
  Factory,
  MockStablecoin,
  PSPVault,
  PlainERC20Upgradeable,
  Points,
} from "../../types/ethers-contracts/index.js";

/** Deploys `name` behind a ProgramProxy (ERC-1967, UUPS), uninitialized, as programs are. */
export async function proxied<T extends BaseContract>(ethers: HardhatEthers, name: string): Promise<T> {
  const impl = await ethers.deployContract(name);
  const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
  return (await ethers.getContractAt(name, await proxy.getAddress())) as unknown as T;
}

/**
 * A program wired as docs/deployment.md#roles-at-birth says (and as test/helpers/fixture.ts does): `admin` holds
 * every admin role, `executor` EXECUTOR_ROLE only, the Factory mints SP, Factory and PSPVault are
 * on the transfer allowlist, 6-decimal USDC is the one registered asset. No oracle, no fees.
 */
export async function deployProgram(ethers: HardhatEthers, admin: string, executor: string) {
  const usdc = (await ethers.deployContract("MockStablecoin", ["USD Coin", "USDC", 6])) as unknown as MockStablecoin;
  const points = await proxied<Points>(ethers, "Points");
  const factory = await proxied<Factory>(ethers, "Factory");
  const vault = await proxied<CollateralVault>(ethers, "CollateralVault");
  const psp = await proxied<PSPVault>(ethers, "PSPVault");
  // A zero admin delay: the delay only matters for handing the admin role over.
  await points.initialize("Acme Points", "ACME", admin, 0, factory, [factory, psp]);
  await vault.initialize(usdc, factory, admin, 0, "Acme USDC Vault", "aUSDC");
  await factory.initialize({
    admin,
    adminDelay: 0,
    points,
    executor,
    oracle: ethers.ZeroAddress,
    asset: usdc,
    vault,
    feeReceiver: admin,
    mintFeeBps: 0,
    redeemFeeBps: 0,
    redeemDelay: 24 * 3600,
  });
  await psp.initialize(admin, 0, points);
  return { usdc, points, factory, vault, psp };
}

/** The floor: OpenZeppelin's plain ERC-20 behind the same UUPS proxy, `supply` minted to `owner`. */
export async function deployPlainErc20(ethers: HardhatEthers, owner: string, supply: bigint) {
  const token = await proxied<PlainERC20Upgradeable>(ethers, "PlainERC20Upgradeable");
  await token.initialize(owner, supply);
  return token;
}
