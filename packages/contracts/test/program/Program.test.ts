import { expect } from "chai";
import { deployProgram, mintSp, networkHelpers, ROLES, SP, USDC } from "../helpers/programFixture.js";

const fixture = () => deployProgram();

describe("Program: end to end", () => {
  it("mint_then_campaign_then_settle_keepsEveryBalanceExact", async () => {
    const p = await networkHelpers.loadFixture(fixture);
    await mintSp(p, p.admin, USDC(1000));
    expect(await p.points.balanceOf(p.admin)).to.equal(SP(1000));
    await p.points.approve(p.psp, SP(100));
    const id = "0x" + "11".repeat(32);
    await p.psp.createCampaign(id, SP(100), [p.bob.address], [], "launch");
    await p.psp.mint(id, p.alice.address, SP(40), "welcome");
    await p.points.addToTransferWhitelist(p.bob.address);
    await p.psp.settle(p.alice.address, p.bob.address, SP(15), id, "redeemed");
    expect(await p.points.balanceOf(p.bob)).to.equal(SP(15));
    expect(await p.psp.balanceOf(id, p.alice)).to.equal(SP(25));
    const c = await p.psp.getCampaign(id);
    expect([c.budget, c.available, c.outstanding]).to.deep.equal([SP(100), SP(60), SP(25)]);
    expect(await p.factory.hasRole(ROLES.EXECUTOR, p.executor)).to.equal(true);
  });
});
