import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const source = "../../src/dashboard/ledger/eventsCsv.ts";
type Ev = {
  time: string;
  event: string | null;
  campaignId: string | null;
  args: Record<string, unknown>;
  txHash: string;
};
const { eventsCsv } = (await import(source)) as {
  eventsCsv(newestFirst: Ev[], names: Record<string, string>, symbol: string | null): string;
};

const ID = `0x${"a".repeat(64)}`;
const [M, H] = [`0x${"1".repeat(40)}`, `0x${"2".repeat(40)}`];

describe("a ledger event list as CSV in points", () => {
  it("oldestFirst_wordsAndOnChainName_labelHolderMinter_amountInPointsWithItsUnit", () => {
    const text = eventsCsv(
      [
        { time: "t3", event: "Transfer", campaignId: null, args: { from: H, to: M, value: "1" }, txHash: "0x3" },
        {
          time: "t2",
          event: "PSPExpired",
          campaignId: ID,
          args: { holder: H, amount: "2000000000000000000" },
          txHash: "0x2",
        },
        {
          time: "t1",
          event: "PSPMinted",
          campaignId: ID,
          args: { minter: M, to: H, amount: "30500000000000000000" },
          txHash: "0x1",
        },
        { time: "t0", event: null, campaignId: null, args: {}, txHash: "0x0" },
      ],
      { [ID]: "spring" },
      "ACME",
    );
    assert.deepEqual(parse(text), [
      ["time", "event", "onChainEvent", "campaign", "campaignId", "holder", "minter", "amount", "unit", "txHash"],
      ["t0", "Unknown event", "", "", "", "", "", "", "", "0x0"],
      ["t1", "pSP issued", "PSPMinted", "spring", ID, H, M, "30.5", "pSP", "0x1"],
      ["t2", "pSP expired", "PSPExpired", "spring", ID, H, "", "2", "pSP", "0x2"],
      ["t3", "SP transfer", "Transfer", "", "", "", "", "0.000000000000000001", "ACME", "0x3"],
    ]);
  });
});
