import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { keccak256, toUtf8Bytes } from "ethers";
import type { RouteName } from "@points/schema";
import { expectError, expectOk, setupE2E, type E2E } from "./helpers/e2e.js";

// One answer for an unknown campaign on every route that names an existing one
// (docs/errors.md#unknown-campaign): 404 NOT_FOUND, CampaignNotFound, whoever asks.
describe("e2e: an unknown campaign is 404 CampaignNotFound on every campaign route", () => {
  let e: E2E;
  const UNKNOWN = "no-such-campaign";
  const UNKNOWN_ID = keccak256(toUtf8Bytes(UNKNOWN));
  const KNOWN = "known-campaign";

  before(async () => {
    e = await setupE2E();
    // A campaign with no budget: reads of it are 200, so the 404 below is about the id alone.
    await (await e.c.pspVault.connect(e.who.brand).createCampaign(keccak256(toUtf8Bytes(KNOWN)), 0, [], [], "")).wait();
  });
  after(() => e?.stop());

  const expectCampaignNotFound = (res: Awaited<ReturnType<E2E["call"]>>) => {
    const d = expectError(res, 404, "NOT_FOUND");
    assert.deepEqual([d.contract, d.name, d.args], ["pspVault", "CampaignNotFound", { campaignId: UNKNOWN_ID }]);
  };

  // Every build route naming a campaign, with a body valid in every other way.
  const builds = (from: string, other: string): [RouteName, Record<string, unknown>][] => [
    ["pspFundCampaign", { amount: "1" }],
    ["pspMint", { to: other, amount: "1", metadata: "" }],
    ["pspSettle", { holder: other, receiver: other, amount: "1", metadata: "" }],
    ["pspExpire", { holder: other, amount: "1", metadata: "" }],
    ["pspTransfer", { holder: other, to: from, amount: "1" }],
    ["pspUpdateSettlementWhitelist", { account: other, allowed: true }],
    ["pspUpdateTransferWhitelist", { account: other, allowed: true }],
    ["pspConfigureMinter", { minter: other, limit: "1", active: true }],
    ["pspSetCampaignAdmin", { account: other, allowed: true }],
    ["pspPauseCampaign", {}],
    ["pspResumeCampaign", {}],
    ["pspCloseCampaign", { to: other }],
  ];

  it("everyBuildRoute_fromTheBrand_is404CampaignNotFound", async () => {
    const { brand, alice } = e.who;
    for (const [name, rest] of builds(brand.address, alice.address)) {
      const body = { campaignId: UNKNOWN, from: brand.address, ...rest };
      expectCampaignNotFound(await e.call(name, { body }));
    }
  });

  it("everyBuildRoute_fromAnAccountWithoutRoles_is404CampaignNotFound_notMissingRole", async () => {
    // settle, expire and transfer check the role before the campaign on chain: the answer must
    // not depend on that order.
    const { outsider, alice } = e.who;
    for (const [name, rest] of builds(outsider.address, alice.address)) {
      const body = { campaignId: UNKNOWN, from: outsider.address, ...rest };
      expectCampaignNotFound(await e.call(name, { body }));
    }
  });

  it("reads_campaignBalanceAndMinterConfig_are404CampaignNotFound_neverAZero", async () => {
    const { alice } = e.who;
    expectCampaignNotFound(await e.call("pspCampaign", { params: { campaignId: UNKNOWN } }));
    expectCampaignNotFound(await e.call("pspBalance", { params: { campaignId: UNKNOWN, holder: alice.address } }));
    expectCampaignNotFound(await e.call("pspMinterConfig", { params: { campaignId: UNKNOWN, minter: alice.address } }));
    expectCampaignNotFound(await e.call("pspCampaign", { params: { campaignId: UNKNOWN_ID } }));
  });

  it("reads_ofAnExistingCampaign_answer200WithZeros", async () => {
    const { alice } = e.who;
    const balance = expectOk(
      "pspBalance",
      await e.call("pspBalance", { params: { campaignId: KNOWN, holder: alice.address } }),
    );
    assert.equal(balance.balance, "0");
    const config = expectOk(
      "pspMinterConfig",
      await e.call("pspMinterConfig", { params: { campaignId: KNOWN, minter: alice.address } }),
    );
    assert.deepEqual([config.limit, config.issued, config.active], ["0", "0", false]);
  });

  it("createCampaign_ofAnUnknownId_isNotAffected_andBuilds", async () => {
    const { brand } = e.who;
    const body = {
      campaignId: UNKNOWN,
      spBudget: "0",
      settlementDestinations: [],
      transferWhitelist: [],
      metadata: "",
      from: brand.address,
    };
    const data = expectOk("pspCreateCampaign", await e.call("pspCreateCampaign", { body }));
    assert.deepEqual(data.campaignId, { value: UNKNOWN_ID, source: "label", label: UNKNOWN });
  });
});
