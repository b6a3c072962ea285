import { expect } from "chai";
import type { BaseContract } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { ProgramUpgradeable } from "../../types/ethers-contracts/index.js";
import { ADMIN_DELAY, deployProgram, ethers, networkHelpers, ROLES, type Program } from "../helpers/programFixture.js";

/**
 * One contract of a program, described so the shared behaviour suites can run against it:
 * how to find its proxy in a deployed program, which roles it defines besides
 * DEFAULT_ADMIN_ROLE, and a valid argument list for its `initialize`.
 */
export interface Target {
  name: "Points" | "Factory" | "CollateralVault" | "PSPVault" | "Oracle";
  roles: Partial<Record<keyof typeof ROLES, string>>;
  proxy(p: Program): BaseContract;
  initArgs(p: Program): Promise<unknown[]>;
}

/** The whole program, Oracle included, so every one of the five contracts is deployed. */
export const programFixture = () => deployProgram({ withOracle: true });

export const TARGETS: Target[] = [
  {
    name: "Points",
    roles: { PAUSER: ROLES.PAUSER, MINTER: ROLES.MINTER },
    proxy: (p) => p.points,
    initArgs: async (p) => ["Acme Points", "ACME", p.admin.address, ADMIN_DELAY, await p.factory.getAddress(), []],
  },
  {
    name: "Factory",
    // EXECUTOR_ROLE is administered by MANAGER_ROLE (test/factory/ExecutorRoleAdmin.test.ts).
    roles: { PAUSER: ROLES.PAUSER, MANAGER: ROLES.MANAGER },
    proxy: (p) => p.factory,
    initArgs: async (p) => [
      {
        admin: p.admin.address,
        adminDelay: ADMIN_DELAY,
        points: await p.points.getAddress(),
        executor: p.executor.address,
        oracle: ethers.ZeroAddress,
        asset: ethers.ZeroAddress,
        vault: ethers.ZeroAddress,
        feeReceiver: p.feeReceiver.address,
        mintFeeBps: 0,
        redeemFeeBps: 0,
        redeemDelay: 0,
        vaultImplementation: ethers.ZeroAddress,
      },
    ],
  },
  {
    name: "CollateralVault",
    roles: { PAUSER: ROLES.PAUSER },
    proxy: (p) => p.vault,
    initArgs: async (p) => [
      await p.usdc.getAddress(),
      await p.factory.getAddress(),
      p.admin.address,
      ADMIN_DELAY,
      "Acme USDC Vault",
      "aUSDC",
    ],
  },
  {
    name: "PSPVault",
    roles: {
      PAUSER: ROLES.PAUSER,
      MANAGER: ROLES.MANAGER,
      CAMPAIGN_ADMIN: ROLES.CAMPAIGN_ADMIN,
      ISSUING_ADMIN: ROLES.ISSUING_ADMIN,
      SETTLEMENT_ADMIN: ROLES.SETTLEMENT_ADMIN,
      TRANSFER_ADMIN: ROLES.TRANSFER_ADMIN,
    },
    proxy: (p) => p.psp,
    initArgs: async (p) => [p.admin.address, ADMIN_DELAY, await p.points.getAddress()],
  },
  {
    name: "Oracle",
    roles: { PAUSER: ROLES.PAUSER },
    proxy: (p) => p.oracle!,
    initArgs: async (p) => [p.admin.address, ADMIN_DELAY, []],
  },
];

/** The target's proxy seen through the shared base's ABI (roles, pause, UUPS, errors). */
export async function asBase(t: Target, p: Program): Promise<ProgramUpgradeable> {
  return ethers.getContractAt("ProgramUpgradeable", await t.proxy(p).getAddress());
}

/** Every named signer of the fixture except the admin, who holds every role at birth. */
export const nonAdmins = (p: Program) => [p.executor, p.alice, p.bob, p.carol, p.dave, p.outsider, p.feeReceiver];

/** The program (from its one fixture) and the target's proxy through the shared base's ABI. */
export async function loadTarget(t: Target) {
  const p = await networkHelpers.loadFixture(programFixture);
  return { p, c: await asBase(t, p) };
}

/** `call` by each of `signers` reverts AccessControlUnauthorizedAccount(signer, role). */
export async function expectEachRefused(
  c: BaseContract,
  signers: HardhatEthersSigner[],
  role: string,
  call: (s: HardhatEthersSigner) => Promise<unknown>,
) {
  for (const s of signers) {
    await expect(call(s))
      .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
      .withArgs(s.address, role);
  }
}
