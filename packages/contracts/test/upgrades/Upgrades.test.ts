import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { CAMPAIGN, NAMES, type Name, upgradesFixture } from "./upgradesFixture.js";

const { loadFixture } = networkHelpers;
type F = Awaited<ReturnType<typeof upgradesFixture>>;

/** What each contract must still know after an upgrade: balances, roles and configuration. */
const STATE: Record<Name, (f: F) => Promise<unknown[]>> = {
  Points: async (f) => [
    await f.points.name(),
    await f.points.symbol(),
    await f.points.totalSupply(),
    await f.points.balanceOf(f.alice),
    await f.points.balanceOf(f.psp),
    await f.points.isTransferWhitelisted(f.alice),
    await f.points.transferRestricted(),
    await f.points.hasRole(ROLES.MINTER, f.factory),
  ],
  Factory: async (f) => [
    await f.factory.points(),
    await f.factory.oracle(),
    await f.factory.feeReceiver(),
    await f.factory.mintFeeBps(),
    await f.factory.redeemFeeBps(),
    await f.factory.redeemDelay(),
    await f.factory.assets(),
    await f.factory.vaultOf(f.usdc),
    await f.factory.isMintWhitelisted(f.alice),
    await f.factory.hasRole(ROLES.EXECUTOR, f.executor),
    await f.factory.hasRole(ROLES.MANAGER, f.admin),
  ],
  CollateralVault: async (f) => [
    await f.vault.asset(),
    await f.vault.factory(),
    await f.vault.totalAssets(),
    await f.vault.totalSupply(),
    await f.vault.balanceOf(f.factory),
    await f.vault.name(),
  ],
  PSPVault: async (f) => [
    [...(await f.psp.getCampaign(CAMPAIGN))],
    await f.psp.balanceOf(CAMPAIGN, f.bob),
    await f.psp.isSettlementWhitelisted(CAMPAIGN, f.bob),
    await f.psp.hasRole(ROLES.MANAGER, f.admin),
    await f.psp.hasRole(ROLES.SETTLEMENT_ADMIN, f.admin),
  ],
  Oracle: async (f) => [[...(await f.oracle.feedOf(f.usdc))], await f.oracle.getPrice(f.usdc)],
};

/** Admin and pause state every contract shares through ProgramUpgradeable. */
async function baseState(f: F, name: Name) {
  const c = await ethers.getContractAt("ProgramUpgradeable", await f.contracts[name].getAddress());
  return [
    await c.defaultAdmin(),
    await c.defaultAdminDelay(),
    await c.hasRole(ROLES.PAUSER, f.admin),
    await c.hasRole(ROLES.DEFAULT_ADMIN, f.outsider),
    await c.paused(),
  ];
}

describe("Upgrades: UUPS, upgrade authorised by DEFAULT_ADMIN_ROLE", () => {
  it("fixture_seedsRealState_beforeAnyUpgrade", async () => {
    const f = await loadFixture(upgradesFixture);
    expect(await f.points.balanceOf(f.alice)).to.equal(SP(900));
    expect(await f.points.totalSupply()).to.equal(SP(1000));
    expect(await f.vault.totalAssets()).to.equal(USDC(1000));
    expect(await f.psp.balanceOf(CAMPAIGN, f.bob)).to.equal(SP(40));
  });

  for (const name of NAMES) {
    describe(name, () => {
      it(`upgradeProxy_toV2_keepsBalancesRolesAndConfig_andExposesVersion2`, async () => {
        const f = await loadFixture(upgradesFixture);
        const proxy = await f.contracts[name].getAddress();
        const [state, base] = [await STATE[name](f), await baseState(f, name)];
        const implBefore = await f.up.erc1967.getImplementationAddress(proxy);

        const v2Factory = await ethers.getContractFactory(`${name}V2Mock`, f.admin);
        const upgraded = await f.up.upgradeProxy(proxy, v2Factory, { kind: "uups" });

        expect(await upgraded.getAddress()).to.equal(proxy);
        expect(await upgraded.getFunction("version")()).to.equal("2");
        expect(await f.up.erc1967.getImplementationAddress(proxy)).to.not.equal(implBefore);
        expect(await STATE[name](f)).to.deep.equal(state);
        expect(await baseState(f, name)).to.deep.equal(base);
      });

      it(`upgradeToAndCall_byAdmin_emitsUpgraded`, async () => {
        const f = await loadFixture(upgradesFixture);
        const c = await ethers.getContractAt("ProgramUpgradeable", await f.contracts[name].getAddress());
        const impl = await ethers.deployContract(`${name}V2Mock`);
        await expect(c.connect(f.admin).upgradeToAndCall(impl, "0x"))
          .to.emit(c, "Upgraded")
          .withArgs(await impl.getAddress());
        const v2 = await ethers.getContractAt(`${name}V2Mock`, await c.getAddress());
        expect(await v2.getFunction("version")()).to.equal("2");
      });

      it(`upgradeToAndCall_revertsWhen_callerIsNotDefaultAdmin`, async () => {
        const f = await loadFixture(upgradesFixture);
        const c = await ethers.getContractAt("ProgramUpgradeable", await f.contracts[name].getAddress());
        const impl = await ethers.deployContract(`${name}V2Mock`);
        const implBefore = await f.up.erc1967.getImplementationAddress(await c.getAddress());
        // Role holders other than the admin (executor, pauser) are refused like strangers.
        await c.connect(f.admin).grantRole(ROLES.PAUSER, f.bob);
        for (const s of [f.executor, f.alice, f.bob, f.outsider, f.feeReceiver]) {
          await expect(c.connect(s).upgradeToAndCall(impl, "0x"))
            .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
            .withArgs(s.address, ROLES.DEFAULT_ADMIN);
        }
        expect(await f.up.erc1967.getImplementationAddress(await c.getAddress())).to.equal(implBefore);
      });

      it(`upgradeToAndCall_revertsWhen_targetIsNotUups`, async () => {
        const f = await loadFixture(upgradesFixture);
        const c = await ethers.getContractAt("ProgramUpgradeable", await f.contracts[name].getAddress());
        // A plain contract has no proxiableUUID: upgrading to it would brick the proxy.
        await expect(c.connect(f.admin).upgradeToAndCall(f.usdc, "0x"))
          .to.be.revertedWithCustomError(c, "ERC1967InvalidImplementation")
          .withArgs(await f.usdc.getAddress());
      });

      it(`upgradeToAndCall_revertsWhen_calledOnTheImplementation`, async () => {
        const f = await loadFixture(upgradesFixture);
        const implAddress = await f.up.erc1967.getImplementationAddress(await f.contracts[name].getAddress());
        const impl = await ethers.getContractAt("ProgramUpgradeable", implAddress);
        const v2 = await ethers.deployContract(`${name}V2Mock`);
        await expect(impl.connect(f.admin).upgradeToAndCall(v2, "0x")).to.be.revertedWithCustomError(
          impl,
          "UUPSUnauthorizedCallContext",
        );
      });
    });
  }

  it("upgradedPointsAndFactory_keepWorking", async () => {
    const f = await loadFixture(upgradesFixture);
    await f.up.upgradeProxy(f.points, await ethers.getContractFactory("PointsV2Mock", f.admin));
    await f.up.upgradeProxy(f.factory, await ethers.getContractFactory("FactoryV2Mock", f.admin));
    await f.usdc.mint(f.alice, USDC(10));
    await f.usdc.connect(f.alice).approve(f.factory, USDC(10));
    await f.factory.connect(f.alice).mint(f.usdc, USDC(10), f.alice);
    await f.points.connect(f.alice).transfer(f.psp, SP(1));
    expect(await f.points.balanceOf(f.alice)).to.equal(SP(909));
    expect(await f.points.totalSupply()).to.equal(SP(1010));
    expect(await f.vault.totalAssets()).to.equal(USDC(1010));
  });
});
