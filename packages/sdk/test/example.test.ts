import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { Wallet, parseUnits } from "ethers";
import { startLive, mintUsdc, type Live } from "./helpers/live.js";

const SDK_DIR = fileURLToPath(new URL("..", import.meta.url));

describe("example: the README example (examples/campaign.ts) against a live API", () => {
  let live: Live;
  before(async () => {
    live = await startLive();
    await mintUsdc(live, live.actors.brand.address, parseUnits("1000", 6));
  });
  after(() => live?.stop());

  it("example_allowlistsCreatesACampaignIssuesViaADelegatedMinterAndSettles", async () => {
    const { brand, alice: partner } = live.actors;
    const customer = Wallet.createRandom().address;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/campaign.ts"], {
      cwd: SDK_DIR,
      env: {
        ...process.env,
        POINTS_API_URL: live.api.url,
        POINTS_API_KEY: live.apiKey,
        RPC_URL: live.node.url,
        BRAND_PRIVATE_KEY: brand.privateKey,
        PARTNER_PRIVATE_KEY: partner.privateKey,
        CUSTOMER_ADDRESS: customer,
        CAMPAIGN_ID: "example-campaign",
      },
      timeout: 60_000,
    });
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(summary, {
      campaignId: summary.campaignId,
      customerSp: "5.0",
      customerPsp: "0",
      partnerIssued: parseUnits("5", 18).toString(),
    });
    // The chain agrees with what the script printed: SP reached the customer, the budget shrank.
    assert.equal((await live.client.read.balance(customer)).balance, parseUnits("5", 18).toString());
    const campaign = await live.client.vault.getCampaign("example-campaign");
    assert.equal(campaign.budget, parseUnits("50", 18).toString());
    assert.equal(campaign.outstanding, "0");
    assert.equal(await live.client.points.isTransferWhitelisted(customer), true);
  });
});
