import { formatUnits } from "ethers";
import type { BulkPlan, BulkProgress } from "../bulk.js";

const units = (v: string, decimals: number) => formatUnits(v, decimals).replace(/\.0$/, "");

/** The plan's figures, one per line: what a person checks before anything is signed. */
export function planLines(plan: BulkPlan): string[] {
  const d = plan.decimals;
  const lines = [
    `${plan.dryRun ? "dry run" : "plan"} ${plan.operation} ${plan.bulkId}: ${plan.rowCount} rows, total ${units(plan.totalAmount, d)}`,
  ];
  if (plan.budget) {
    lines.push(`  budget available ${units(plan.budget.available, d)}, shortfall ${units(plan.budget.shortfall, d)}`);
  }
  if (plan.minter) {
    const m = plan.minter;
    lines.push(
      `  minter limit ${units(m.limit, d)}, issued ${units(m.issued, d)}, headroom ${units(m.headroom, d)}${m.active ? "" : " (inactive)"}`,
    );
  }
  if (plan.blocked)
    lines.push(`  the chain would refuse the drop: ${plan.blocked.name} ${JSON.stringify(plan.blocked.args)}`);
  lines.push(`  recipients not allowed ${plan.notAllowed.length}`);
  for (const r of plan.notAllowed) {
    lines.push(
      `    row ${r.row} ${r.address}: ${r.reason}, amount ${units(r.amount, d)}${r.balance === undefined ? "" : `, holds ${units(r.balance, d)}`}`,
    );
  }
  lines.push(`  transactions ${plan.chunkCount} (gas per row ${plan.gasPerRow}, ceiling ${plan.gasCeiling})`);
  return lines;
}

/** One chunk's move: "chunk 2/4 rows 297-592 mined 0x…". */
export function progressLine(plan: BulkPlan, p: BulkProgress): string {
  const c = plan.chunks[p.index];
  if (!c) throw new Error(`progress of chunk ${p.index}, which the plan of ${plan.chunkCount} chunks does not have`);
  const rows = `rows ${c.firstRow}-${c.firstRow + c.rowCount - 1}`;
  const status = p.status === "landed" ? "already on chain" : p.status;
  const tail = p.error ? `: ${p.error.code} ${p.error.message}` : p.hash ? ` ${p.hash}` : "";
  return `chunk ${p.index + 1}/${plan.chunkCount} ${rows} ${status}${tail}`;
}
