import { expect } from "chai";
import { deployProgram, networkHelpers, ROLES, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, DAI, mintWith, registerDai, Status } from "./factoryFixture.js";

const plain = () => deployProgram();
const unauthorized = "AccessControlUnauthorizedAccount";

/** USDC (holding alice's 100) and an empty DAI vault registered; alice may redeem. */
async function twoAssets() {
  const p = await networkHelpers.loadFixture(plain);
  await registerDai(p);
  await mintWith(p, p.usdc, p.alice, USDC(100));
  await allowRedeemer(p, p.alice, SP(100));
  return p;
}

describe("Factory: removeAsset (DEFAULT_ADMIN_ROLE, empty vaults only)", () => {
  it("removeAsset_removesAnAssetWhoseVaultIsEmpty", async () => {
    const p = await twoAssets();
    await expect(p.factory.removeAsset(p.dai))
      .to.emit(p.factory, "AssetRemoved")
      .withArgs(await p.dai.getAddress(), await p.daiVault.getAddress());
    expect(await p.factory.assets()).to.deep.equal([await p.usdc.getAddress()]);
    expect(await p.factory.vaultOf(p.dai)).to.equal("0x0000000000000000000000000000000000000000");
    // It can be registered again afterwards.
    await registerDai(p);
    expect(await p.factory.assets()).to.deep.equal([await p.usdc.getAddress(), await p.dai.getAddress()]);
  });

  it("removeAsset_keepsTheOtherAssetsInTheList_whenTheFirstIsRemoved", async () => {
    const p = await twoAssets();
    await mintWith(p, p.dai, p.bob, DAI(5));
    await p.factory.connect(p.alice).requestRedeem(p.usdc, p.alice, SP(100), false);
    await p.factory.connect(p.executor).finalizeRedeem(1);
    await p.factory.removeAsset(p.usdc);
    expect(await p.factory.assets()).to.deep.equal([await p.dai.getAddress()]);
  });

  it("removeAsset_revertsWith_VaultNotEmpty_whileTheFactoryHoldsShares", async () => {
    const p = await twoAssets();
    await expect(p.factory.removeAsset(p.usdc))
      .to.be.revertedWithCustomError(p.factory, "VaultNotEmpty")
      .withArgs(await p.usdc.getAddress(), await p.vault.getAddress(), USDC(100));
  });

  it("removeAsset_revertsWith_AssetNotRegistered_forAnUnknownAsset", async () => {
    const p = await twoAssets();
    await p.factory.removeAsset(p.dai);
    await expect(p.factory.removeAsset(p.dai))
      .to.be.revertedWithCustomError(p.factory, "AssetNotRegistered")
      .withArgs(await p.dai.getAddress());
  });

  it("removeAsset_revertsWhen_callerLacksDefaultAdminRole_evenForAManager", async () => {
    const p = await twoAssets();
    await p.factory.grantRole(ROLES.MANAGER, p.dave);
    for (const who of [p.dave, p.executor, p.alice]) {
      await expect(p.factory.connect(who).removeAsset(p.dai))
        .to.be.revertedWithCustomError(p.factory, unauthorized)
        .withArgs(who.address, ROLES.DEFAULT_ADMIN);
    }
  });

  it("pendingRequestForARemovedAsset_cannotBeFinalized_butCanBeCancelled", async () => {
    const p = await twoAssets();
    await p.factory.connect(p.alice).requestRedeem(p.dai, p.alice, SP(10), false);
    await p.factory.removeAsset(p.dai);
    await expect(p.factory.connect(p.executor).finalizeRedeem(1))
      .to.be.revertedWithCustomError(p.factory, "AssetNotRegistered")
      .withArgs(await p.dai.getAddress());
    await expect(p.factory.connect(p.alice).cancelRedeem(1)).to.emit(p.factory, "RedeemCancelled").withArgs(1n);
    expect((await p.factory.getRedeemRequest(1)).status).to.equal(Status.Cancelled);
    expect(await p.points.balanceOf(p.alice)).to.equal(SP(100));
  });
});
