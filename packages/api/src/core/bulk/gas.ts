import type { Row } from "./rows.js";

/** Used only when no row can be simulated (a dry run of a drop the chain would refuse). */
export const FALLBACK_GAS = { base: 100_000n, perRow: 60_000n };
/** The API adds 20% to every simulated gas (docs/rules.md#the-unsigned-transaction). */
export const withMargin = (estimate: bigint) => (estimate * 120n + 99n) / 100n;
// Rows measured by the probe: enough for a stable slope, cheap to simulate.
const PROBE_ROWS = 40;

export interface GasModel {
  base: bigint;
  perRow: bigint;
}

/**
 * The gas of a batch as base + perRow x rows, measured by simulating the first row alone and
 * the first PROBE_ROWS rows together (the slope is the marginal gas of one row).
 */
export async function measureGas(rows: Row[], estimate: (rows: Row[]) => Promise<bigint>): Promise<GasModel> {
  if (rows.length === 0) return FALLBACK_GAS;
  const k = Math.min(rows.length, PROBE_ROWS);
  const [one, many] = await Promise.all([estimate(rows.slice(0, 1)), k > 1 ? estimate(rows.slice(0, k)) : 0n]);
  if (k === 1) return { base: 0n, perRow: one };
  const perRow = (many - one + BigInt(k - 2)) / BigInt(k - 1);
  return { base: one > perRow ? one - perRow : 0n, perRow };
}

/** Most rows one chunk may hold under `ceiling` (its gas limit with the margin), with 5% spare. */
export function rowsPerChunk(model: GasModel, ceiling: number): number {
  const room = (BigInt(ceiling) * 100n) / 120n - model.base;
  const n = (room * 95n) / 100n / (model.perRow > 0n ? model.perRow : 1n);
  return Math.max(1, Number(n > 100_000n ? 100_000n : n));
}

/** Consecutive runs of rows with the same metadata, at most `max` rows each, in request order. */
export function chunkRows(rows: Row[], max: number): Row[][] {
  const chunks: Row[][] = [];
  for (const r of rows) {
    const last = chunks.at(-1);
    if (last && last.length < max && last[0].metadata === r.metadata) last.push(r);
    else chunks.push([r]);
  }
  return chunks;
}
