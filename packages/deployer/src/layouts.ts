import type { StorageItem, StorageLayout } from "@openzeppelin/upgrades-core";
import { getAddress, keccak256 } from "ethers";
import { codeMatches, diskArtifact, type Artifact } from "./artifacts.js";
import { DeployerError } from "./errors.js";
import type { LayoutRecords, RecordedLayout } from "./types.js";
import { storageLayoutOf } from "./upgradeSafety.js";

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

/** How one variable of the deployed layout relates to the new one. */
export type LayoutChange =
  /** Same name, same type (a struct or enum copied with identical members counts as the same type). */
  | "same"
  /** New, after every variable of the deployed layout. */
  | "appended"
  /** Same position and type, another name. */
  | "renamed"
  /** Same name, a type that reads the stored data differently. */
  | "changed"
  /** Same name, a type that only grew where growing is allowed (a mapping value's struct, an enum). */
  | "extended"
  /** Another name and another type at that position. */
  | "replaced"
  /** Gone from the new layout. */
  | "removed"
  /** New, before variables of the deployed layout: those would move. */
  | "inserted"
  /** Same name and type, at another slot (after an insertion or removal before it). */
  | "moved";

/** One variable of the old and the new layout, side by side. */
export interface LayoutRow {
  /** "" for plain storage, else the ERC-7201 namespace (e.g. "erc7201:points.storage.Points"). */
  namespace: string;
  /** Position in the new layout (in the deployed one for a removed variable). */
  index: number;
  /** `label type` in the deployed layout, the type in full (e.g. `holders mapping(address => struct Points.Holder)`). */
  old?: string;
  /** `label type` in the new layout, the type in full. */
  next?: string;
  change: LayoutChange;
  /** Whether this row keeps the stored data readable as before. */
  safe: boolean;
  /** Why, in words: "unchanged", "appended at the end", "inserted before existing fields"... */
  reason: string;
}

const REASONS: Record<LayoutChange, string> = {
  same: "unchanged",
  appended: "appended at the end",
  renamed: "renamed only",
  changed: "type changed",
  extended: "type extended (members appended)",
  replaced: "replaced (other name and type)",
  removed: "removed",
  inserted: "inserted before existing fields",
  moved: "moved to another slot",
};

interface TypeId {
  head: string;
  args: string[];
  tail: string;
}

/** `t_mapping(t_address,t_uint256)` -> head t_mapping, args [t_address, t_uint256], tail "". */
function parseTypeId(id: string): TypeId {
  const open = id.indexOf("(");
  if (open < 0) return { head: id, args: [], tail: "" };
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open; i < id.length; i++) {
    const c = id[i];
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) {
      args.push(id.slice(from, i));
      return { head: id.slice(0, open), args: args.filter((a) => a !== ""), tail: id.slice(i + 1) };
    } else if (c === "," && depth === 1) {
      args.push(id.slice(from, i));
      from = i + 1;
    }
  }
  return { head: id, args: [], tail: "" };
}

type Relation = "same" | "extended" | "changed";

/**
 * How the new type `b` relates to the deployed type `a`, by structure rather than by name: a
 * struct (or enum) declared again in another contract with the same members is the same type,
 * though its label (`struct Points.Holder`) differs. Follows OpenZeppelin's rules where a type
 * may grow: members appended to a struct that is a mapping's value, members appended to an enum
 * of the same size. `grow` is true where a struct may take members at its end.
 */
function relate(
  a: string,
  la: StorageLayout,
  b: string,
  lb: StorageLayout,
  grow = false,
  stack = new Set<string>(),
): Relation {
  if (a === b && la === lb) return "same";
  const key = `${a}|${b}|${grow}`;
  if (stack.has(key)) return "same"; // a recursive type: decided by the outer comparison
  stack.add(key);
  try {
    const pa = parseTypeId(a);
    const pb = parseTypeId(b);
    const ta = la.types[a];
    const tb = lb.types[b];
    const addressLike = (h: string) => h === "t_address" || h === "t_contract";
    if (addressLike(pa.head) && addressLike(pb.head)) return "same";
    if (pa.head !== pb.head) return "changed";
    switch (pa.head) {
      case "t_struct": {
        const ma = (ta?.members ?? []) as { label: string; type: string }[];
        const mb = (tb?.members ?? []) as { label: string; type: string }[];
        if (!ta?.members || !tb?.members) return ta?.label === tb?.label ? "same" : "changed";
        if (mb.length < ma.length || (mb.length > ma.length && !grow)) return "changed";
        let result: Relation = mb.length > ma.length ? "extended" : "same";
        for (let i = 0; i < ma.length; i++) {
          if (ma[i].label !== mb[i].label) return "changed";
          const r = relate(ma[i].type, la, mb[i].type, lb, false, stack);
          if (r === "changed") return "changed";
          if (r === "extended") result = "extended";
        }
        return result;
      }
      case "t_enum": {
        const ma = (ta?.members ?? []) as string[];
        const mb = (tb?.members ?? []) as string[];
        if (ma.some((m, i) => mb[i] !== m) || (ta?.numberOfBytes ?? "1") !== (tb?.numberOfBytes ?? "1")) {
          return "changed";
        }
        return mb.length === ma.length ? "same" : "extended";
      }
      case "t_mapping": {
        if (relate(pa.args[0], la, pb.args[0], lb, false, stack) !== "same") return "changed";
        return relate(pa.args[1], la, pb.args[1], lb, true, stack);
      }
      case "t_array": {
        const na = pa.tail.match(/^(\d+|dyn)/)?.[0];
        const nb = pb.tail.match(/^(\d+|dyn)/)?.[0];
        if (na !== nb) {
          if (na === "dyn" || nb === "dyn" || !grow || Number(nb) < Number(na)) return "changed";
        }
        const inner = relate(pa.args[0], la, pb.args[0], lb, false, stack);
        return inner === "same" && na !== nb ? "extended" : inner;
      }
      case "t_userDefinedValueType":
        return ta?.numberOfBytes !== undefined && ta.numberOfBytes === tb?.numberOfBytes ? "same" : "changed";
      default:
        return a === b || (ta?.label !== undefined && ta.label === tb?.label) ? "same" : "changed";
    }
  } finally {
    stack.delete(key);
  }
}

function describe(item: StorageItem, layout: StorageLayout): string {
  return `${item.label} ${layout.types[item.type]?.label ?? item.type}`;
}

/** Whether a variable sits at another slot or offset (known only when the layouts give slots). */
function moved(o: StorageItem, n: StorageItem): boolean {
  if (o.slot === undefined || n.slot === undefined) return false;
  return o.slot !== n.slot || (o.offset ?? 0) !== (n.offset ?? 0);
}

type Step =
  | { kind: "pair"; a: number; b: number; change: LayoutChange }
  | { kind: "insert"; b: number; change: "inserted" | "appended" }
  | { kind: "remove"; a: number };

/**
 * The deployed and new variables of one storage group aligned as OpenZeppelin aligns them (a
 * Levenshtein alignment: an insertion or removal costs 2, a change of name or of name and type
 * 3, of type alone 1, an append at the end nothing), so one inserted variable is one
 * "inserted" row rather than every later variable "changed".
 */
function align(a: StorageItem[], la: StorageLayout, b: StorageItem[], lb: StorageLayout): Step[] {
  const pair = (i: number, j: number): { cost: number; change: LayoutChange } => {
    const r = relate(a[i].type, la, b[j].type, lb);
    const renamed = a[i].label !== b[j].label;
    if (renamed) return r === "changed" ? { cost: 3, change: "replaced" } : { cost: 3, change: "renamed" };
    if (r === "changed") return { cost: 1, change: "changed" };
    if (moved(a[i], b[j])) return { cost: 1, change: "moved" };
    return { cost: 0, change: r === "same" ? "same" : "extended" };
  };
  // cost[i][j]: aligning a[0..i) with b[0..j)
  const cost: number[][] = [];
  const from: ("pair" | "insert" | "remove")[][] = [];
  for (let i = 0; i <= a.length; i++) {
    cost.push([]);
    from.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 && j === 0) {
        cost[i][j] = 0;
        continue;
      }
      const options: [number, "pair" | "insert" | "remove"][] = [];
      if (i > 0 && j > 0) options.push([cost[i - 1][j - 1] + pair(i - 1, j - 1).cost, "pair"]);
      if (j > 0) options.push([cost[i][j - 1] + (j > a.length ? 0 : 2), "insert"]);
      if (i > 0) options.push([cost[i - 1][j] + 2, "remove"]);
      const best = options.reduce((x, y) => (y[0] < x[0] ? y : x));
      cost[i][j] = best[0];
      from[i][j] = best[1];
    }
  }
  const steps: Step[] = [];
  for (let i = a.length, j = b.length; i > 0 || j > 0;) {
    const f = from[i][j];
    if (f === "pair") steps.unshift({ kind: "pair", a: --i, b: --j, change: pair(i, j).change });
    else if (f === "insert")
      steps.unshift({ kind: "insert", b: --j, change: i === a.length && j >= a.length ? "appended" : "inserted" });
    else steps.unshift({ kind: "remove", a: --i });
  }
  return steps;
}

/**
 * The deployed and the new layouts variable by variable, namespaces included, each row saying
 * whether it is safe and why. Types are compared by structure (a struct copied into another
 * contract with identical members is unchanged). Explains; the verdict on an upgrade stays
 * OpenZeppelin's (`assertUpgradeSafe`), which also checks what rows do not show (slots, gaps).
 */
export function layoutDiff(old: StorageLayout, next: StorageLayout): LayoutRow[] {
  const groups = new Set(["", ...Object.keys(old.namespaces ?? {}), ...Object.keys(next.namespaces ?? {})]);
  const itemsOf = (l: StorageLayout, ns: string) => (ns === "" ? l.storage : (l.namespaces?.[ns] ?? []));
  const rows: LayoutRow[] = [];
  for (const ns of groups) {
    const a = itemsOf(old, ns);
    const b = itemsOf(next, ns);
    for (const step of align(a, old, b, next)) {
      const o = step.kind === "insert" ? undefined : a[step.a];
      const n = step.kind === "remove" ? undefined : b[step.b];
      let change: LayoutChange = step.kind === "remove" ? "removed" : step.change;
      // Without slots in the layouts (older compilers), a variable at another position has moved.
      const slotless = o?.slot === undefined || n?.slot === undefined;
      if (change === "same" && slotless && step.kind === "pair" && step.a !== step.b) change = "moved";
      // A rename annotated for OpenZeppelin (`@custom:oz-renamed-from`) is accepted by it.
      const annotated = change === "renamed" && n?.renamedFrom === o?.label;
      const reason =
        change === "renamed" && !annotated ? "renamed only (needs @custom:oz-renamed-from)" : REASONS[change];
      const safe = ["same", "appended", "extended"].includes(change) || annotated;
      rows.push({
        namespace: ns,
        index: step.kind === "remove" ? step.a : step.b,
        ...(o ? { old: describe(o, old) } : {}),
        ...(n ? { next: describe(n, next) } : {}),
        change,
        safe,
        reason,
      });
    }
  }
  return rows;
}

/** A type label made short for a table: `mapping(address => struct Points.Holder)` -> `mapping(address=>Holder)`. */
export function shortType(text: string): string {
  return text
    .replace(/\b(struct|enum|contract) /g, "")
    .replace(/\b[A-Za-z_]\w*\.(?=[A-Za-z_])/g, "")
    .replace(/ => /g, "=>");
}

/**
 * `text` in lines of at most `width` characters. A `label type` cell too wide breaks between the
 * variable and its type; a type still too wide breaks after a comma, `>` or `(` (else anywhere).
 * Continuation lines are indented by two spaces.
 */
function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const space = text.indexOf(" ");
  const [head, tail] = space > 0 && space <= width ? [text.slice(0, space), text.slice(space + 1)] : ["", text];
  const lines = head ? [head] : [];
  let rest = tail;
  let room = head ? width - 2 : width;
  while (rest.length > room) {
    let cut = -1;
    for (let i = room; i > room / 3 && cut < 0; i--) if (",>( ".includes(rest[i - 1])) cut = i;
    if (cut < 0) cut = room;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
    room = width - 2;
  }
  lines.push(rest);
  return lines.map((line, k) => (k === 0 ? line : `  ${line}`));
}

/** The widest line `formatLayoutDiff` prints. */
export const LAYOUT_TABLE_WIDTH = 100;

/**
 * The rows as a text table at most `width` (100) columns wide: one block per namespace with the
 * deployed and the new variable (types shortened by `shortType`; a cell still too wide wraps)
 * and the change, `UNSAFE:` before a change that would corrupt storage. The full types are in
 * the rows (`--json`).
 */
export function formatLayoutDiff(rows: LayoutRow[], width = LAYOUT_TABLE_WIDTH): string {
  const cell = (s?: string) => (s === undefined ? "-" : shortType(s));
  const changeOf = (r: LayoutRow) => (r.safe ? r.reason : `UNSAFE: ${r.reason}`);
  const indent = "  ";
  const gap = "  ";
  const header = ["deployed", "new", "change"];
  const out: string[] = [];
  for (const ns of [...new Set(rows.map((r) => r.namespace))]) {
    const block = rows.filter((r) => r.namespace === ns);
    // Widths per block: a block of unchanged rows leaves its types more room.
    const changeWidth = Math.min(
      width - indent.length - 2 * gap.length - 24,
      Math.max(header[2].length, ...block.map((r) => changeOf(r).length)),
    );
    const natural = [0, 1].map((c) =>
      Math.max(header[c].length, ...block.map((r) => cell(c === 0 ? r.old : r.next).length)),
    );
    const room = width - indent.length - 2 * gap.length - changeWidth;
    let widths = natural;
    if (natural[0] + natural[1] > room) {
      const half = Math.floor(room / 2);
      if (natural[0] < half) widths = [natural[0], room - natural[0]];
      else if (natural[1] < half) widths = [room - natural[1], natural[1]];
      else widths = [half, room - half];
    }
    const line = (cols: string[][]) => {
      const lines: string[] = [];
      for (let k = 0; k < Math.max(...cols.map((c) => c.length)); k++) {
        const parts = cols.map((c, i) => (c[k] ?? "").padEnd(i < 2 ? widths[i] : 0));
        lines.push((indent + parts.join(gap)).trimEnd());
      }
      return lines;
    };
    out.push(...wrap(ns || "(plain storage)", width));
    out.push(...line(header.map((h) => [h])));
    for (const r of block) {
      out.push(...line([wrap(cell(r.old), widths[0]), wrap(cell(r.next), widths[1]), wrap(changeOf(r), changeWidth)]));
    }
  }
  return out.join("\n");
}
