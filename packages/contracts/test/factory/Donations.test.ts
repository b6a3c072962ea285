import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, SP, USDC } from "../helpers/programFixture.js";
import { allowRedeemer, DAI, expectBacked, registerDai } from "./factoryFixture.js";

const fixture = () => deployProgram();

/** outsider sends collateral straight to a vault (no deposit) before anyone mints. */
async function donatedFirst() {
  const p = await networkHelpers.loadFixture(fixture);
  await p.usdc.mint(p.outsider, USDC(1));
  await p.usdc.connect(p.outsider).transfer(p.vault, USDC(1));
  return p;
}

// Regression: with ERC-4626 share pricing, a donation as large as the first deposit left the
// Factory zero shares, so the first minter's SP could never be redeemed.
describe("Factory: collateral sent to a vault without a deposit (backing invariant)", () => {
  it("mint_givesTheFactoryAClaimOnExactlyTheDeposit_despiteAnEarlierDonation", async () => {
    const p = await donatedFirst();
    await mintSp(p, p.alice, USDC(1));
    expect(await p.vault.balanceOf(p.factory)).to.equal(USDC(1));
    expect(await p.vault.maxWithdraw(p.factory)).to.equal(USDC(1));
    expect(await p.vault.totalAssets()).to.equal(USDC(2));
    await expectBacked(p);
  });

  it("finalizeRedeem_paysInFull_afterADonationBeforeTheFirstMint", async () => {
    const p = await donatedFirst();
    await mintSp(p, p.alice, USDC(1));
    await allowRedeemer(p, p.alice, SP(1));
    await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(1), false);
    await p.factory.connect(p.executor).finalizeRedeem(1);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(1));
    expect(await p.points.totalSupply()).to.equal(0n);
    // The donation backs nothing and nobody can claim it.
    expect(await p.vault.maxWithdraw(p.factory)).to.equal(0n);
    expect(await p.vault.totalAssets()).to.equal(USDC(1));
  });

  it("basketRedemption_ignoresDonatedCollateral_whenSharingOutPayouts", async () => {
    const p = await donatedFirst();
    await registerDai(p);
    await p.dai.mint(p.daiVault, DAI(1000)); // donated: the DAI vault backs no SP
    await mintSp(p, p.alice, USDC(100));
    await allowRedeemer(p, p.alice, SP(100));
    await p.factory.setBasketModeForced(true);
    await p.factory.connect(p.alice).requestRedeem(p.usdc, p.bob, SP(40), true);
    await p.factory.connect(p.executor).finalizeRedeem(1);
    expect(await p.usdc.balanceOf(p.bob)).to.equal(USDC(40));
    expect(await p.dai.balanceOf(p.bob)).to.equal(0n);
    await expectBacked(p);
  });
});
