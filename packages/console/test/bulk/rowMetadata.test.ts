import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";

// By computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const path = "../../src/bulk/rowMetadata.ts";
type Chunk = { metadata: string; tag: string };
const { metadataSplit, rowMetadataOf, withoutRowMetadata } = (await import(path)) as {
  metadataSplit: (plan: { chunks: Chunk[] }) => { split: boolean; texts: number };
  rowMetadataOf: (chunk: Chunk) => string;
  withoutRowMetadata: (csv: string) => Promise<string>;
};

const tag = (i: number) => `bulk:0xabc:${i + 1}/3`;
const chunk = (text: string, i: number): Chunk => ({ metadata: text ? `${text} ${tag(i)}` : tag(i), tag: tag(i) });
const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";

// docs/rules.md#bulk-requests: a chunk is a run of rows with the same metadata; the API appends the chunk's tag.
describe("bulk: per-row metadata, said before anything is signed", () => {
  it("rowMetadataOf_isTheChunksTextWithoutItsTag", () => {
    assert.equal(rowMetadataOf(chunk("order 7, spring", 0)), "order 7, spring");
    assert.equal(rowMetadataOf(chunk("", 1)), "");
  });

  it("metadataSplit_isTrue_whenNeighbouringChunksCarryDifferentTexts", () => {
    assert.deepEqual(metadataSplit({ chunks: [chunk("a", 0), chunk("b", 1), chunk("a", 2)] }), {
      split: true,
      texts: 2,
    });
    assert.deepEqual(metadataSplit({ chunks: [chunk("", 0), chunk("x", 1)] }), { split: true, texts: 2 });
  });

  it("metadataSplit_isFalse_forOneTextOrChunksCutByGasAlone", () => {
    assert.deepEqual(metadataSplit({ chunks: [chunk("spring", 0), chunk("spring", 1)] }), { split: false, texts: 1 });
    assert.deepEqual(metadataSplit({ chunks: [chunk("", 0)] }), { split: false, texts: 1 });
    assert.deepEqual(metadataSplit({ chunks: [] }), { split: false, texts: 0 });
  });

  it("withoutRowMetadata_keepsAddressAndAmount_ofEveryRow_quotedCommasAndLineBreaksIncluded", async () => {
    const csv = [
      "address,amount,metadata",
      `${A},1.5,"order 1, gift"`,
      `${B},2,"line one`,
      `line two"`,
      `${A},3`,
      "",
      `"${B}","4",plain`,
    ].join("\n");
    const out = await withoutRowMetadata(csv);
    assert.deepEqual(parse(out), [
      ["address", "amount"],
      [A, "1.5"],
      [B, "2"],
      [A, "3"],
      [B, "4"],
    ]);
    assert.ok(!out.includes("gift") && !out.includes("line two"), out);
  });

  it("withoutRowMetadata_rejects_anUnclosedQuote_ratherThanGuessingRows", async () => {
    await assert.rejects(withoutRowMetadata(`${A},1,"never closed\n${B},2`));
  });
});
