import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import { Points__factory } from "@points/contracts";
import { withBigints } from "../src/index.js";
import { createCampaign, seedBrand, startLive, type Live } from "./helpers/live.js";

// Results carry amounts as exact decimal text; withBigints offers them as bigint.
describe("amounts: bigint in, decimal text or bigint out", () => {
  let live: Live;
  const budget = 3n * 10n ** 18n + 1n;
  before(async () => {
    live = await startLive();
    await seedBrand(live, parseUnits("10", 6));
    await createCampaign(live, "big", budget);
  });
  after(() => live?.stop());

  it("aCampaignBuiltWithABigintBudget_readsBackAsText_andAsBigintThroughWithBigints", async () => {
    const read = await live.client.vault.getCampaign("big");
    assert.deepEqual([read.budget, read.available, read.outstanding], [budget.toString(), budget.toString(), "0"]);
    const big = withBigints(read);
    const typed: bigint = big.budget;
    assert.deepEqual([typed, big.available, big.outstanding], [budget, budget, 0n]);
    // Other text stays text: the campaign id and the creator's address.
    assert.deepEqual([big.campaignId, big.creator], [read.campaignId, read.creator]);
  });

  it("nestedAmounts_factoryStateSupplyAndEachAssetsCollateral_becomeBigint_matchingTheChain", async () => {
    const state = withBigints(await live.client.read.factoryState());
    const supply = await Points__factory.connect(live.program.points, live.node.provider).totalSupply();
    assert.equal(state.totalSupply, supply);
    assert.equal(typeof state.redeemRequestCount, "bigint");
    assert.deepEqual(
      state.assets.map((a) => [a.asset, typeof a.collateral]),
      [[live.usdc, "bigint"]],
    );
    assert.equal(state.assets[0].collateral, parseUnits("10", 6));
  });
});
