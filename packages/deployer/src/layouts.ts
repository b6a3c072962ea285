import type { StorageItem, StorageLayout } from "@openzeppelin/upgrades-core";
import { getAddress, keccak256 } from "ethers";
import { codeMatches, diskArtifact, type Artifact } from "./artifacts.js";
import { DeployerError } from "./errors.js";
import type { LayoutRecords, RecordedLayout } from "./types.js";
import { storageLayoutOf } from "./upgrade-safety.js";

/** The layout record of `artifact` deployed at `address`. */
export function layoutRecord(artifact: Artifact, address: string, dir?: string): RecordedLayout {
  return { artifact: artifact.contractName, address: getAddress(address), layout: storageLayoutOf(artifact, dir) };
}

/**
 * `records` with `artifact`'s layout added under the hash of `code`, the runtime code read from
 * the chain at `address`. The layout comes from the build on disk, so that build's runtime code
 * must be exactly `code` (immutables masked): a stale program module (after `hardhat compile`
 * without `pnpm build`) deploys other code than the build the layout describes, and recording it
 * would let a later unsafe upgrade through. ARTIFACTS_MISSING then, nothing recorded.
 */
export function withLayout(
  records: LayoutRecords | undefined,
  code: string,
  artifact: Artifact,
  address: string,
  dir?: string,
): LayoutRecords {
  if (!codeMatches(diskArtifact(artifact.contractName, dir), code)) {
    throw new DeployerError(
      "ARTIFACTS_MISSING",
      `layout: the code at ${getAddress(address)} is not the build of ${artifact.contractName} on disk, whose ` +
        `storage layout would be recorded; rebuild (pnpm build) so the program module and the artifacts agree`,
    );
  }
  return { ...(records ?? {}), [keccak256(code)]: layoutRecord(artifact, address, dir) };
}

/** One variable position of an old and a new layout, side by side. */
export interface LayoutRow {
  /** "" for plain storage, else the ERC-7201 namespace (e.g. "erc7201:points.storage.Points"). */
  namespace: string;
  index: number;
  old?: string;
  next?: string;
  change: "same" | "appended" | "changed" | "removed";
}

function describe(item: StorageItem | undefined, layout: StorageLayout): string | undefined {
  if (!item) return undefined;
  return `${item.label} ${layout.types[item.type]?.label ?? item.type}`;
}

/** The old and new layouts position by position, namespaces included. */
export function layoutDiff(old: StorageLayout, next: StorageLayout): LayoutRow[] {
  const groups = new Set(["", ...Object.keys(old.namespaces ?? {}), ...Object.keys(next.namespaces ?? {})]);
  const itemsOf = (l: StorageLayout, ns: string) => (ns === "" ? l.storage : (l.namespaces?.[ns] ?? []));
  const rows: LayoutRow[] = [];
  for (const ns of groups) {
    const a = itemsOf(old, ns);
    const b = itemsOf(next, ns);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const o = describe(a[i], old);
      const n = describe(b[i], next);
      const change = o === undefined ? "appended" : n === undefined ? "removed" : o === n ? "same" : "changed";
      rows.push({ namespace: ns, index: i, ...(o ? { old: o } : {}), ...(n ? { next: n } : {}), change });
    }
  }
  return rows;
}

/** The rows as a text table: namespace, old, new, change. */
export function formatLayoutDiff(rows: LayoutRow[]): string {
  const cells = rows.map((r) => [r.namespace || "(storage)", r.old ?? "-", r.next ?? "-", r.change]);
  const all = [["namespace", "deployed", "new", "change"], ...cells];
  const widths = all[0].map((_, c) => Math.max(...all.map((row) => row[c].length)));
  return all
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
