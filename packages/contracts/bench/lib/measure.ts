import type { ContractTransactionResponse } from "ethers";

/** One line of the gas table. `gas` is undefined when the row could not be measured. */
export interface Row {
  operation: string;
  /** The state the measured call runs in (what is already warm, who calls). */
  state: string;
  gas?: bigint;
  /** Why the row has no number. */
  note?: string;
}

/** gasUsed of the mined transaction's receipt: execution plus the 21,000 intrinsic and calldata. */
export async function gasUsed(tx: Promise<ContractTransactionResponse>): Promise<bigint> {
  const receipt = await (await tx).wait();
  if (receipt === null || receipt.status !== 1) throw new Error("transaction not mined or reverted");
  return receipt.gasUsed;
}

/** Collects rows in order; `measure` runs the call and records its receipt's gasUsed. */
export class GasTable {
  readonly rows: Row[] = [];

  async measure(operation: string, state: string, tx: () => Promise<ContractTransactionResponse>): Promise<bigint> {
    const gas = await gasUsed(tx());
    this.rows.push({ operation, state, gas });
    return gas;
  }

  /** A row computed from other measurements (for instance a marginal cost per batch row). */
  record(operation: string, state: string, gas: bigint) {
    this.rows.push({ operation, state, gas });
  }

  skip(operation: string, state: string, note: string) {
    this.rows.push({ operation, state, note });
  }

  gasOf(operation: string): bigint | undefined {
    return this.rows.find((r) => r.operation === operation)?.gas;
  }

  /** A Markdown table; the ratio column divides every row by `baseline` gas. */
  render(baseline: bigint): string {
    const lines = [
      "| Operation | Gas used | Ratio vs plain ERC-20 transfer | State measured |",
      "| --- | ---: | ---: | --- |",
    ];
    for (const r of this.rows) {
      const gas = r.gas === undefined ? (r.note ?? "n/a") : r.gas.toLocaleString("en-US");
      lines.push(`| ${r.operation} | ${gas} | ${r.gas === undefined ? "" : ratio(r.gas, baseline)} | ${r.state} |`);
    }
    return lines.join("\n");
  }
}

/** `gas / baseline` with three decimals, computed in integers to avoid float drift. */
export function ratio(gas: bigint, baseline: bigint): string {
  const milli = (gas * 1000n + baseline / 2n) / baseline;
  return `${milli / 1000n}.${String(milli % 1000n).padStart(3, "0")}x`;
}
