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

describe("gas snapshot check", () => {
  it("passes_whenAFreshRunEqualsTheCommittedSnapshot", () => {
    expect(
      compareSnapshots(
        committed,
        fresh(() => {}),
        [TREX],
      ),
    ).to.deep.equal([]);
  });

  it("fails_onAChangedRow_eitherWay", () => {
    expect(
      compareSnapshots(
        committed,
        fresh((s) => (s.gas.mint = 141_524)),
        [TREX],
      ),
    ).to.deep.equal(['gas row changed: "mint" 141523 -> 141524']);
    expect(
      compareSnapshots(
        committed,
        fresh((s) => (s.gas.mint = 141_522)),
        [TREX],
      ),
    ).to.deep.equal(['gas row changed: "mint" 141523 -> 141522']);
  });

  it("fails_onAnAddedOrRemovedRow", () => {
    expect(
      compareSnapshots(
        committed,
        fresh((s) => (s.gas.burn = 30_000)),
        [TREX],
      ),
    ).to.deep.equal(['gas row added: "burn" = 30000']);
    expect(
      compareSnapshots(
        committed,
        fresh((s) => delete s.gas.mint),
        [TREX],
      ),
    ).to.deep.equal(['gas row removed: "mint" (was 141523)']);
  });

  it("fails_onASkippedRow_butAllowsTheErc3643RowToBeSkipped", () => {
    expect(
      compareSnapshots(
        committed,
        fresh((s) => (s.gas.mint = "skipped: boom")),
        [TREX],
      ),
    ).to.deep.equal(['gas row skipped: "mint" (was 141523; skipped: boom)']);
    expect(
      compareSnapshots(
        committed,
        fresh((s) => (s.gas[TREX] = "skipped: no package")),
        [TREX],
      ),
    ).to.deep.equal([]);
  });

  it("fails_onAChangedAddedOrRemovedContractSize", () => {
    expect(
      compareSnapshots(
        committed,
        fresh((s) => {
          s.sizes.Factory = 20_679;
          delete s.sizes.Points;
          s.sizes.Extra = 100;
        }),
        [TREX],
      ),
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
