import { expect } from "chai";
import { compareSnapshots, MAX_CONTRACT_SIZE, oversized, type Snapshot } from "../../bench/lib/snapshot.js";

const TREX = "ERC-3643 transfer";
const committed: Snapshot = {
  gas: { "SP transfer": 41_964, [TREX]: 199_762, mint: 141_523 },
  sizes: { Factory: 20_678, Points: 15_832 },
};
const fresh = (change: (s: Snapshot) => void): Snapshot => {
  const s = structuredClone(committed);
  change(s);
  return s;
};

/** The committed snapshot against a fresh run that differs by `change`, the ERC-3643 row optional. */
const check = (change: (s: Snapshot) => void) => compareSnapshots(committed, fresh(change), [TREX]);

describe("gas snapshot check", () => {
  it("passes_whenAFreshRunEqualsTheCommittedSnapshot", () => {
    expect(check(() => {})).to.deep.equal([]);
  });

  it("fails_onAChangedRow_eitherWay", () => {
    expect(check((s) => (s.gas.mint = 141_524))).to.deep.equal(['gas row changed: "mint" 141523 -> 141524']);
    expect(check((s) => (s.gas.mint = 141_522))).to.deep.equal(['gas row changed: "mint" 141523 -> 141522']);
  });

  it("fails_onAnAddedOrRemovedRow", () => {
    expect(check((s) => (s.gas.burn = 30_000))).to.deep.equal(['gas row added: "burn" = 30000']);
    expect(check((s) => delete s.gas.mint)).to.deep.equal(['gas row removed: "mint" (was 141523)']);
  });

  it("fails_onASkippedRow_butAllowsTheErc3643RowToBeSkipped", () => {
    expect(check((s) => (s.gas.mint = "skipped: boom"))).to.deep.equal([
      'gas row skipped: "mint" (was 141523; skipped: boom)',
    ]);
    expect(check((s) => (s.gas[TREX] = "skipped: no package"))).to.deep.equal([]);
  });

  it("fails_onAChangedAddedOrRemovedContractSize", () => {
    expect(
      check((s) => {
        s.sizes.Factory = 20_679;
        delete s.sizes.Points;
        s.sizes.Extra = 100;
      }),
    ).to.deep.equal([
      "contract size changed: Factory 20678 -> 20679 bytes",
      "contract removed: Points (was 15832 bytes)",
      "contract added: Extra = 100 bytes",
    ]);
  });

  it("oversized_listsEveryContractAbove23552Bytes_andAcceptsExactly23552", () => {
    expect(MAX_CONTRACT_SIZE).to.equal(23_552);
    expect(oversized({ A: 23_552, B: 23_553, C: 24_303 })).to.deep.equal([
      "B is 23553 bytes, over the 23552-byte limit",
      "C is 24303 bytes, over the 23552-byte limit",
    ]);
  });
});
