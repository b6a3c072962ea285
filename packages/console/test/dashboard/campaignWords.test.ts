import { describe, it } from "node:test";
import assert from "node:assert/strict";

// By computed paths: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const fieldsPath = "../../src/dashboard/campaignFields.ts";
const namesPath = "../../src/dashboard/nameWords.ts";
const { metadataFields, accountName } = (await import(fieldsPath)) as {
  metadataFields(metadata: string): { label: string; value: string }[] | null;
  accountName(program: object, connected: string | null, address: string): string | null;
};
const { heldRoleLines } = (await import(namesPath)) as {
  heldRoleLines(held: { contract: string; role: string }[]): string[];
};

const addr = (n: number) => "0x" + String(n).padStart(40, "0");
const program = { factory: addr(1), points: addr(2), collateralVault: addr(3), pspVault: addr(4), oracle: null };

describe("a campaign reads in words: fields, not JSON; names, not bare addresses", () => {
  it("metadataFields_jsonObject_labelledFields_nestedStaysJson", () => {
    assert.deepEqual(metadataFields('{"label":"spring","campaignNote":"Q2","limits":{"max":5}}'), [
      { label: "Label", value: "spring" },
      { label: "Campaign note", value: "Q2" },
      { label: "Limits", value: '{"max":5}' },
    ]);
  });

  it("metadataFields_notAJsonObject_null", () => {
    assert.equal(metadataFields("Summer promotion"), null);
    assert.equal(metadataFields("[1,2]"), null);
  });

  it("accountName_connectedWallet_programContract_orUnknown", () => {
    assert.equal(accountName(program, addr(9).toUpperCase().replace("0X", "0x"), addr(9)), "Your wallet");
    assert.equal(accountName(program, null, addr(4)), "Campaign vault");
    assert.equal(accountName(program, addr(9), addr(8)), null);
  });
});

describe("roles read in words, not as on-chain constants", () => {
  it("heldRoleLines_oneLinePerContract_inWords", () => {
    assert.deepEqual(
      heldRoleLines([
        { contract: "factory", role: "DEFAULT_ADMIN_ROLE" },
        { contract: "factory", role: "MANAGER_ROLE" },
        { contract: "pspVault", role: "SETTLEMENT_ADMIN_ROLE" },
      ]),
      ["Factory: Admin, Manager", "Campaign vault: Settlement admin"],
    );
  });
});
