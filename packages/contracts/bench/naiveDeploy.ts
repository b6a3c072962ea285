/**
 * The naive way to deploy a program, for the deployment benchmark (packages/deployer/bench):
 * OpenZeppelin's deployProxy (kind uups) per contract, then separate wiring and role
 * transactions until the end state equals a ProgramFactory deployment (docs/deployment.md),
 * waiting for each receipt. Run against a running node:
 *   RPC_URL=http://127.0.0.1:PORT COLLATERAL=0x... BENCH_OUT=out.json pnpm hardhat run bench/naiveDeploy.ts --network localhost
 * Writes {startBlock, endBlock, wallMs, transactions} to BENCH_OUT; the caller measures gas and blocks.
 */
import { writeFileSync } from "node:fs";
import hre from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import type { ContractTransactionResponse } from "ethers";

const connection = await hre.network.create();
const { ethers } = connection;
const up = await upgrades(hre, connection);
const [deployer, brand] = await ethers.getSigners();
const collateral = process.env.COLLATERAL;
if (!collateral) throw new Error("COLLATERAL (address of an ERC-20) is required");

let transactions = 0;
async function send(tx: Promise<ContractTransactionResponse>) {
  await (await tx).wait();
  transactions++;
}
async function proxy(name: string, args: unknown[]) {
  const c = await up.deployProxy(await ethers.getContractFactory(name), args, { kind: "uups" });
  await c.waitForDeployment();
  transactions += 2; // implementation + proxy (and the initializer call inside the proxy's constructor)
  return ethers.getContractAt(name, await c.getAddress());
}

const startBlock = await ethers.provider.getBlockNumber();
const t0 = Date.now();
const D = deployer.address;

// 1. One proxy per contract; the deployer is the temporary admin, minter and manager.
const points = await proxy("Points", ["Naive Points", "NAIVE", D, 0, D, []]);
const psp = await proxy("PSPVault", [D, 0, await points.getAddress()]);
const vaultImplementation = await ethers.deployContract("CollateralVault");
await vaultImplementation.waitForDeployment();
transactions++;
const factory = await proxy("Factory", [
  {
    admin: D,
    adminDelay: 0,
    points: await points.getAddress(),
    executor: ethers.ZeroAddress,
    oracle: ethers.ZeroAddress,
    asset: ethers.ZeroAddress,
    vault: ethers.ZeroAddress,
    feeReceiver: brand.address,
    mintFeeBps: 0,
    redeemFeeBps: 0,
    redeemDelay: 0,
    vaultImplementation: await vaultImplementation.getAddress(),
  },
]);
// registerAsset takes only a vault the Factory created itself (docs/rules.md).
const vaultArgs = [collateral, "Naive Points Collateral", "cNAIVE"] as const;
const vaultAddress = await factory.createVault.staticCall(...vaultArgs);
await send(factory.createVault(...vaultArgs));
const vault = await ethers.getContractAt("CollateralVault", vaultAddress);

// 2. Wiring: collateral, minter, transfer allowlist, executor.
await send(factory.registerAsset(collateral, vault));
await send(points.grantRole(await points.MINTER_ROLE(), factory));
await send(points.revokeRole(await points.MINTER_ROLE(), D));
await send(points.addToTransferWhitelist(factory));
await send(points.addToTransferWhitelist(psp));
await send(factory.grantRole(await factory.EXECUTOR_ROLE(), D));

// 3. The brand wallet's roles, then the deployer renounces its own.
const PAUSER = await points.PAUSER_ROLE();
const roles: [typeof points | typeof factory | typeof vault | typeof psp, string[]][] = [
  [points, [PAUSER]],
  [factory, [PAUSER, await factory.MANAGER_ROLE()]],
  [vault, [PAUSER]],
  [
    psp,
    [
      PAUSER,
      await psp.MANAGER_ROLE(),
      await psp.CAMPAIGN_ADMIN_ROLE(),
      await psp.ISSUING_ADMIN_ROLE(),
      await psp.SETTLEMENT_ADMIN_ROLE(),
      await psp.TRANSFER_ADMIN_ROLE(),
    ],
  ],
];
for (const [c, list] of roles) for (const role of list) await send(c.grantRole(role, brand.address));
for (const [c, list] of roles) for (const role of list) await send(c.renounceRole(role, D));

// 4. DEFAULT_ADMIN_ROLE moves in two steps (AccessControlDefaultAdminRules).
for (const [c] of roles) await send(c.beginDefaultAdminTransfer(brand.address));
for (const [c] of roles) await send((c.connect(brand) as typeof points).acceptDefaultAdminTransfer());

const wallMs = Date.now() - t0;
const endBlock = await ethers.provider.getBlockNumber();
const out = { startBlock, endBlock, wallMs, transactions, points: await points.getAddress() };
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify(out));
console.log(JSON.stringify(out));
