/**
 * Layout rows say per variable whether the change is safe and why, compare types by structure (a
 * struct copied with identical members is unchanged) and print within 100 columns.
 */
import assert from "node:assert/strict";
import type { StorageLayout } from "@openzeppelin/upgrades-core";
import { formatLayoutDiff, layoutDiff, loadArtifact, storageLayoutOf, type LayoutRow } from "../src/index.js";

const NS = "erc7201:points.storage.Points";

/** Points' build layout, copied so each test edits its own. */
function points(): StorageLayout {
  return structuredClone(storageLayoutOf(loadArtifact("Points")));
}

const item = (l: StorageLayout, label: string) => l.namespaces![NS].find((i) => i.label === label)!;
const rowsOf = (rows: LayoutRow[]) =>
  rows.filter((r) => r.namespace === NS).map((r) => [r.old ?? "-", r.next ?? "-", r.change, r.safe, r.reason]);

/**
 * `layout` with Points' Holder struct declared again in another contract, as solc reports a copy:
 * another type id and label, the same members.
 */
function withCopiedHolder(layout: StorageLayout, contract: string): StorageLayout {
  const holders = item(layout, "holders");
  const mappingId = holders.type; // t_mapping(t_address,t_struct(Holder)<astId>_storage)
  const structId = mappingId.slice(mappingId.indexOf(",") + 1, -1);
  const copyStruct = structId.replace(/\)\d+_storage$/, ")999999_storage");
  const copyMapping = `t_mapping(t_address,${copyStruct})`;
  layout.types[copyStruct] = { ...layout.types[structId], label: `struct ${contract}.Holder` };
  layout.types[copyMapping] = { ...layout.types[mappingId], label: `mapping(address => struct ${contract}.Holder)` };
  delete layout.types[structId];
  delete layout.types[mappingId];
  holders.type = copyMapping;
  return layout;
}

describe("layoutDiff: every row says whether it is safe and why", () => {
  it("aStructCopiedWithIdenticalMembers_isUnchanged_thoughItsLabelDiffers", () => {
    const next = withCopiedHolder(points(), "PointsCopy");
    const rows = layoutDiff(points(), next);
    assert.deepEqual(rowsOf(rows), [
      [
        "holders mapping(address => struct Points.Holder)",
        "holders mapping(address => struct PointsCopy.Holder)",
        "same",
        true,
        "unchanged",
      ],
      ["totalSupply uint256", "totalSupply uint256", "same", true, "unchanged"],
      ["transferRestricted bool", "transferRestricted bool", "same", true, "unchanged"],
    ]);
    assert.ok(
      rows.every((r) => r.change === "same"),
      "every namespace unchanged",
    );
    // The table shows the short type, identical on both sides.
    assert.match(
      formatLayoutDiff(rows),
      /holders mapping\(address=>Holder\)\s+holders mapping\(address=>Holder\)\s+unchanged/,
    );
  });

  it("aCopiedStructWithAMemberRetyped_isATypeChange_unsafe", () => {
    const next = withCopiedHolder(points(), "PointsCopy");
    const copy = Object.keys(next.types).find((k) => k.includes("999999_storage") && !k.startsWith("t_mapping"))!;
    const members = next.types[copy].members as { label: string; type: string }[];
    next.types[copy] = { ...next.types[copy], members: [{ ...members[0], type: "t_uint256" }, members[1]] };
    const row = layoutDiff(points(), next).find((r) => r.namespace === NS && r.index === 0)!;
    assert.deepEqual([row.change, row.safe, row.reason], ["changed", false, "type changed"]);
  });

  it("inserted_moved_renamed_retyped_appended_removed_eachNamed", () => {
    const old = points();
    const [holders, totalSupply, transferRestricted] = old.namespaces![NS];
    const next = points();
    // As solc lays out the edited struct: a field inserted at the top moves every later one a slot.
    next.namespaces![NS] = [
      { ...totalSupply, label: "inserted", slot: "0" },
      { ...holders, slot: "1" },
      { ...totalSupply, label: "supply", slot: "2" },
      { ...transferRestricted, type: "t_uint256", slot: "3" },
      { ...totalSupply, label: "extra", slot: "4" },
    ];
    assert.deepEqual(rowsOf(layoutDiff(old, next)), [
      ["-", "inserted uint256", "inserted", false, "inserted before existing fields"],
      [
        "holders mapping(address => struct Points.Holder)",
        "holders mapping(address => struct Points.Holder)",
        "moved",
        false,
        "moved to another slot",
      ],
      ["totalSupply uint256", "supply uint256", "renamed", false, "renamed only (needs @custom:oz-renamed-from)"],
      ["transferRestricted bool", "transferRestricted uint256", "changed", false, "type changed"],
      ["-", "extra uint256", "appended", true, "appended at the end"],
    ]);
    const removed = points();
    removed.namespaces![NS] = [holders, { ...transferRestricted, slot: totalSupply.slot }];
    assert.deepEqual(
      rowsOf(layoutDiff(old, removed)).map((r) => r.slice(1)),
      [
        ["holders mapping(address => struct Points.Holder)", "same", true, "unchanged"],
        ["-", "removed", false, "removed"],
        ["transferRestricted bool", "moved", false, "moved to another slot"],
      ],
    );
  });

  it("aRenameAnnotatedOzRenamedFrom_isSafe", () => {
    const next = points();
    const ns = next.namespaces![NS];
    ns[1] = { ...ns[1], label: "supply", renamedFrom: "totalSupply" };
    const row = layoutDiff(points(), next).find((r) => r.namespace === NS && r.index === 1)!;
    assert.deepEqual([row.change, row.safe, row.reason], ["renamed", true, "renamed only"]);
  });

  it("theTable_fitsIn100Columns_wrappingLongTypes_theRowsKeepTheFullTypes", () => {
    const old = points();
    const next = points();
    const long = "t_mapping(t_address,t_mapping(t_uint256,t_struct(Holder)1_storage))";
    next.types[long] = {
      label:
        "mapping(address => mapping(uint256 => struct SomeVeryLongContractNameForTesting.SomeVeryLongStructNameThatKeepsGoing))",
      numberOfBytes: "32",
    };
    next.namespaces![NS].push({
      ...item(old, "totalSupply"),
      label: "aVeryLongVariableNameForNestedBalances",
      type: long,
    });
    const rows = layoutDiff(old, next);
    const appended = rows.find((r) => r.change === "appended")!;
    assert.equal(
      appended.next,
      `aVeryLongVariableNameForNestedBalances ${next.types[long].label}`,
      "full type in the row",
    );
    const table = formatLayoutDiff(rows);
    for (const line of table.split("\n")) assert.ok(line.length <= 100, `${line.length} columns: ${line}`);
    assert.match(table, /SomeVeryLongStructNameThatKeepsGoing/, "wrapped, not cut");
    assert.doesNotMatch(table, /SomeVeryLongContractNameForTesting/, "the declaring contract is left out");
  });
});
