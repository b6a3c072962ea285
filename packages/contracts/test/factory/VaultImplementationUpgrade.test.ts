import { expect } from "chai";
import type { Factory } from "../../types/ethers-contracts/index.js";
import { deployProgram, ethers, networkHelpers, ROLES, type Program } from "../helpers/programFixture.js";
import { IMPLEMENTATION_SLOT } from "../helpers/releaseFixture.js";
import { bareInitParams, deployToken, freshFactory } from "./factoryFixture.js";

const { loadFixture } = networkHelpers;

/** A ProgramFactory over fresh implementations, or the ones in `use` (a hostile ProgramFactory). */
async function release(p: Program, use: { factory?: string; collateralVault?: string } = {}) {
  const names = ["Points", "Factory", "CollateralVault", "PSPVault", "Oracle"] as const;
  const [points, factory, vault, psp, oracle] = await Promise.all(
    names.map(async (n) => (await ethers.deployContract(n)).getAddress()),
  );
  const impls = { points, factory, collateralVault: vault, pspVault: psp, oracle, ...use };
  const pf = await ethers.deployContract("ProgramFactory", [p.admin.address, p.admin.address, impls, "0.2.0"]);
  return { pf, impls };
}

/** A program's Factory as initialized before vaultImplementation existed (none recorded). */
async function fixture() {
  const p = await deployProgram();
  const old = await freshFactory();
  await old.initialize(bareInitParams(p));
  return { p, old };
}

const recordCall = (f: Factory, pf: string) => f.interface.encodeFunctionData("initializeVaultImplementation", [pf]);

describe("Factory: an upgraded Factory from before vaultImplementation records its release's CollateralVault", () => {
  it("upgradeToAndCall_initializeVaultImplementation_letsAnOldLayoutFactoryCreateVaults_overTheReleasesCollateralVault", async () => {
    const { p, old } = await loadFixture(fixture);
    const r = await release(p);
    const pf = await r.pf.getAddress();
    await expect(old.connect(p.admin).upgradeToAndCall(r.impls.factory, recordCall(old, pf)))
      .to.emit(old, "VaultImplementationRecorded")
      .withArgs(pf, r.impls.collateralVault);
    const token = await deployToken(6, "NEW");
    const at = await old.predictVault(token);
    await expect(old.connect(p.admin).createVault(token, "Acme NEW Vault", "aNEW"))
      .to.emit(old, "CollateralVaultCreated")
      .withArgs(await token.getAddress(), at);
    const slot = await ethers.provider.getStorage(at, IMPLEMENTATION_SLOT);
    expect(ethers.getAddress(ethers.dataSlice(slot, 12))).to.equal(r.impls.collateralVault);
    await expect(old.connect(p.admin).registerAsset(token, at)).to.emit(old, "AssetRegistered").withArgs(token, at);
  });

  it("initializeVaultImplementation_revertsWhen_aManagerPointsTheFactoryAtAHostileVaultImplementation", async () => {
    const { p, old } = await loadFixture(fixture);
    const r = await release(p);
    // Upgraded without the call, the record is still open; a MANAGER brings a ProgramFactory of
    // its own that names this very Factory implementation and a hostile "CollateralVault".
    await old.connect(p.admin).upgradeToAndCall(r.impls.factory, "0x");
    await old.connect(p.admin).grantRole(ROLES.MANAGER, p.outsider);
    const token = await deployToken(6, "EVIL");
    const hostileImpl = await ethers.deployContract("HostileVault", [token, old]);
    const hostile = await release(p, { factory: r.impls.factory, collateralVault: await hostileImpl.getAddress() });
    await expect(old.connect(p.outsider).initializeVaultImplementation(hostile.pf))
      .to.be.revertedWithCustomError(old, "AccessControlUnauthorizedAccount")
      .withArgs(p.outsider.address, ROLES.DEFAULT_ADMIN);
    await expect(old.connect(p.admin).createVault(token, "X", "X")).to.be.revertedWithCustomError(
      old,
      "VaultImplementationUnknown",
    );
  });

  it("initializeVaultImplementation_revertsWith_ForeignRelease_whenTheProgramFactoryIsNotTheReleaseThisProxyRuns", async () => {
    const { p, old } = await loadFixture(fixture);
    const r = await release(p);
    // Another release's ProgramFactory (its Factory is other code) cannot choose the vault code.
    const other = await release(p);
    await expect(old.connect(p.admin).upgradeToAndCall(r.impls.factory, recordCall(old, await other.pf.getAddress())))
      .to.be.revertedWithCustomError(old, "ForeignRelease")
      .withArgs(await other.pf.getAddress());
  });

  it("initializeVaultImplementation_revertsWhen_calledAgainToRepointARecordedImplementation", async () => {
    const { p, old } = await loadFixture(fixture);
    const r = await release(p);
    await old.connect(p.admin).upgradeToAndCall(r.impls.factory, recordCall(old, await r.pf.getAddress()));
    const hostileImpl = await ethers.deployContract("HostileVault", [p.dai, old]);
    const hostile = await release(p, { factory: r.impls.factory, collateralVault: await hostileImpl.getAddress() });
    await expect(old.connect(p.admin).initializeVaultImplementation(hostile.pf)).to.be.revertedWithCustomError(
      old,
      "InvalidInitialization",
    );
    await old.connect(p.admin).createVault(p.dai, "X", "X");
    const slot = await ethers.provider.getStorage(await old.predictVault(p.dai), IMPLEMENTATION_SLOT);
    expect(ethers.getAddress(ethers.dataSlice(slot, 12))).to.equal(r.impls.collateralVault);
  });
});
