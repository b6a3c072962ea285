import { expect } from "chai";
import { deployProgram, ethers, networkHelpers, ROLES } from "../helpers/programFixture.js";
import { IMPLEMENTATION_SLOT } from "../helpers/releaseFixture.js";

const plain = () => deployProgram();

/** The FactoryRedemption the program's Factory implementation created in its constructor. */
async function redemptionCode() {
  const p = await networkHelpers.loadFixture(plain);
  const slot = await ethers.provider.getStorage(p.factory, IMPLEMENTATION_SLOT);
  const impl = ethers.getAddress(ethers.dataSlice(slot, 12));
  // The implementation's first (and only) CREATE: its nonce starts at 1 (EIP-161).
  const target = ethers.getCreateAddress({ from: impl, nonce: 1 });
  return { ...p, target: await ethers.getContractAt("FactoryRedemption", target) };
}

describe("Factory: the redemption code runs only in the Factory proxy's context", () => {
  it("theImplementationCreatesItsRedemptionCode_inItsConstructor", async () => {
    const p = await redemptionCode();
    expect(await ethers.provider.getCode(p.target)).to.not.equal("0x");
  });

  it("directCalls_revertWith_DelegateCallOnly", async () => {
    const p = await redemptionCode();
    const t = p.target.connect(p.executor);
    await expect(t.requestRedeem(p.usdc, p.alice, 1n, false)).to.be.revertedWithCustomError(t, "DelegateCallOnly");
    await expect(t.cancelRedeem(1n)).to.be.revertedWithCustomError(t, "DelegateCallOnly");
    await expect(t.rejectRedeem(1n)).to.be.revertedWithCustomError(t, "DelegateCallOnly");
    await expect(t.finalizeRedeem(1n, true)).to.be.revertedWithCustomError(t, "DelegateCallOnly");
    await expect(t.finalizeRedeemBatch([1n])).to.be.revertedWithCustomError(t, "DelegateCallOnly");
  });

  it("theProxyStaysTheOnlyMinterAndVaultCaller_theRedemptionCodeHoldsNoRole", async () => {
    const p = await redemptionCode();
    expect(await p.points.hasRole(ROLES.MINTER, p.factory)).to.equal(true);
    expect(await p.points.hasRole(ROLES.MINTER, p.target)).to.equal(false);
    expect(await p.vault.factory()).to.equal(await p.factory.getAddress());
    for (const r of [ROLES.EXECUTOR, ROLES.MANAGER, ROLES.DEFAULT_ADMIN, ROLES.PAUSER]) {
      expect(await p.factory.hasRole(r, p.target)).to.equal(false);
    }
  });
});
