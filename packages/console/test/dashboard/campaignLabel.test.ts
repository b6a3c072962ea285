import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { id } from "ethers";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/campaignLabel.ts";
const { labelMetadata, verifiedLabel } = (await import(source)) as {
  labelMetadata: (label: string, note?: string) => string;
  verifiedLabel: (campaignId: string, metadata: string | undefined) => string | undefined;
};

describe("a campaign's name is its label only when the label hashes to its id", () => {
  it("theLabelItWasCreatedWith_namesIt", () => {
    assert.equal(labelMetadata("spring", "Spring promotion"), '{"label":"spring","note":"Spring promotion"}');
    assert.equal(verifiedLabel(id("spring"), labelMetadata("spring")), "spring");
    assert.equal(verifiedLabel(id("spring").toUpperCase().replace("0X", "0x"), labelMetadata("spring")), "spring");
  });

  it("aBorrowedOrMissingLabel_namesNothing", () => {
    assert.equal(verifiedLabel(id("winter"), labelMetadata("spring")), undefined, "another campaign's label");
    assert.equal(verifiedLabel(id("spring"), "spring"), undefined, "not JSON");
    assert.equal(verifiedLabel(id("spring"), '{"label":42}'), undefined);
    assert.equal(verifiedLabel(id("spring"), undefined), undefined);
  });
});
