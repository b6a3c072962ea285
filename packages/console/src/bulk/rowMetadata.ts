import type { BulkPlan } from "@points/sdk";

type Chunk = BulkPlan["chunks"][number];

/** A chunk's own metadata: the rows' shared text without the chunk's tag, which the API appends. */
export function rowMetadataOf(chunk: Pick<Chunk, "metadata" | "tag">): string {
  return chunk.metadata === chunk.tag
    ? ""
    : chunk.metadata.slice(0, Math.max(0, chunk.metadata.length - chunk.tag.length - 1));
}

/**
 * Whether per-row metadata splits the drop: one transaction carries one metadata text, so the API starts a new
 * chunk wherever a row's metadata differs from the row before (docs/rules.md#bulk-requests). Split when two
 * neighbouring chunks carry different texts; `texts` counts the distinct ones.
 */
export function metadataSplit(plan: Pick<BulkPlan, "chunks">): { split: boolean; texts: number } {
  const texts = plan.chunks.map(rowMetadataOf);
  const split = texts.some((t, i) => i > 0 && t !== texts[i - 1]);
  return { split, texts: new Set(texts).size };
}

const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * The same rows without their metadata column: address and amount only, so the drop packs as many rows per
 * transaction as gas allows. Parsed with csv-parse (quoted fields with commas or line breaks included), loaded only
 * when asked for.
 */
export async function withoutRowMetadata(csv: string): Promise<string> {
  const { parse } = await import("csv-parse/browser/esm/sync");
  const records = parse(csv, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  return records.map((r) => r.slice(0, 2).map(field).join(",")).join("\n") + "\n";
}
