import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/components/verificationWords.ts";
const { notVerifiedReason, notVerifiedSummary } = (await import(source)) as {
  notVerifiedReason(view: object, contract: string): string | null;
  notVerifiedSummary(view: object, contracts: [string, string][]): string[];
};
const CONTRACTS: [string, string][] = [
  ["factory", "Factory"],
  ["points", "Points token"],
  ["pspVault", "Campaign vault"],
];

describe("unverified sources are said once, not once per contract", () => {
  it("notVerifiedSummary_noneQueued_oneLineNamingEveryContract", () => {
    assert.deepEqual(notVerifiedSummary({ message: null, contracts: [] }, CONTRACTS), [
      "Source not verified: Factory, Points token, Campaign vault (not queued)",
    ]);
  });

  it("notVerifiedSummary_verifiedAndPendingAreLeftToTheirOwnLines_skippedGroupedByReason", () => {
    const view = {
      message: "local chain",
      contracts: [
        { contract: "factory", status: "verified", explorer: "sourcify" },
        { contract: "points", status: "pending", explorer: "etherscan" },
        { contract: "pspVault", status: "skipped", explorer: "etherscan", reason: "no API key" },
      ],
    };
    assert.deepEqual(notVerifiedSummary(view, CONTRACTS), ["Source not verified: Campaign vault (no API key)"]);
    assert.equal(notVerifiedReason(view, "factory"), null);
    assert.equal(notVerifiedReason(view, "oracle"), "local chain");
  });
});
