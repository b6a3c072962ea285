import { expect } from "chai";
import { deployProgram, ethers, networkHelpers, ROLES } from "../helpers/programFixture.js";
import { bareInitParams, deployToken, freshFactory } from "./factoryFixture.js";

const { loadFixture } = networkHelpers;
const fixture = () => deployProgram();

describe("Factory: only a CollateralVault the Factory created over the release's implementation holds collateral", () => {
  it("registerAsset_revertsWhen_vaultIsAHostileContractReportingTheRightAssetAndFactory", async () => {
    const p = await loadFixture(fixture);
    const token = await deployToken(6, "EVIL");
    const hostile = await ethers.deployContract("HostileVault", [token, p.factory]);
    expect(await hostile.asset()).to.equal(await token.getAddress());
    expect(await hostile.factory()).to.equal(await p.factory.getAddress());
    await expect(p.factory.registerAsset(token, hostile))
      .to.be.revertedWithCustomError(p.factory, "InvalidVault")
      .withArgs(await hostile.getAddress(), await token.getAddress());
  });

  it("registerAsset_revertsWhen_vaultIsAGenuineProxyNotCreatedByTheFactory_itsImplementationCouldLie", async () => {
    const p = await loadFixture(fixture);
    const token = await deployToken(6, "TKN");
    // A ProgramProxy over a real CollateralVault, made by hand and naming this Factory: its
    // code hash is the right one, but nothing proves which implementation sits in its slot.
    const impl = await ethers.deployContract("CollateralVault");
    const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
    const byHand = await ethers.getContractAt("CollateralVault", await proxy.getAddress());
    await byHand.initialize(token, p.factory, p.admin.address, 0, "Hand", "hand");
    expect(await byHand.factory()).to.equal(await p.factory.getAddress());
    await expect(p.factory.registerAsset(token, byHand))
      .to.be.revertedWithCustomError(p.factory, "InvalidVault")
      .withArgs(await byHand.getAddress(), await token.getAddress());
  });

  it("createVault_makesAProxyOfTheReleasesCollateralVault_atPredictVault_ownedByTheProgramAdmin", async () => {
    const p = await loadFixture(fixture);
    const token = await deployToken(6, "NEW");
    const at = await p.factory.predictVault(token);
    await expect(p.factory.createVault(token, "Acme NEW Vault", "aNEW"))
      .to.emit(p.factory, "CollateralVaultCreated")
      .withArgs(await token.getAddress(), at);
    const vault = await ethers.getContractAt("CollateralVault", at);
    expect([await vault.asset(), await vault.factory(), await vault.name(), await vault.symbol()]).to.deep.equal([
      await token.getAddress(),
      await p.factory.getAddress(),
      "Acme NEW Vault",
      "aNEW",
    ]);
    expect(await vault.defaultAdmin()).to.equal(p.admin.address);
    // ERC-1967 implementation slot: the release's CollateralVault, the same as the USDC vault's.
    const slot = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
    const impl = (a: string) => ethers.provider.getStorage(a, slot);
    expect(await impl(at)).to.equal(await impl(await p.vault.getAddress()));
    await expect(p.factory.registerAsset(token, vault)).to.emit(p.factory, "AssetRegistered").withArgs(token, at);
  });

  it("createVault_revertsWhen_callerLacksDefaultAdminRole_evenForAManager", async () => {
    const p = await loadFixture(fixture);
    await p.factory.grantRole(ROLES.MANAGER, p.outsider);
    for (const who of [p.outsider, p.executor]) {
      await expect(p.factory.connect(who).createVault(p.dai, "X", "X"))
        .to.be.revertedWithCustomError(p.factory, "AccessControlUnauthorizedAccount")
        .withArgs(who.address, ROLES.DEFAULT_ADMIN);
    }
  });

  it("createVault_revertsWith_VaultImplementationUnknown_onAFactoryInitializedWithoutIt", async () => {
    const p = await loadFixture(fixture);
    const fresh = await freshFactory();
    await fresh.initialize(bareInitParams(p));
    await expect(fresh.createVault(p.dai, "X", "X")).to.be.revertedWithCustomError(fresh, "VaultImplementationUnknown");
  });

  it("createVault_revertsWhen_calledTwiceForTheSameAsset", async () => {
    const p = await loadFixture(fixture);
    // The fixture's Factory already created the DAI vault at its one address.
    await expect(p.factory.createVault(p.dai, "X", "X"))
      .to.be.revertedWithCustomError(p.factory, "VaultAlreadyCreated")
      .withArgs(await p.dai.getAddress(), await p.daiVault.getAddress());
  });
});
