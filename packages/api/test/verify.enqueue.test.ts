import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Db } from "../src/core/db/db.js";
import { VerifyStore, type ExplorerName, type NewTarget } from "../src/core/verify/store.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";

const target = (contract: string, byte: string): NewTarget => ({
  contract,
  address: "0x" + byte.repeat(20),
  artifact: contract === "points" ? "ERC1967Proxy" : "Points",
  constructorArgs: "0x" + byte,
});

// A program's verification is queued in one write: its contracts on each explorer, the release's shared ones once.
for (const backend of backends()) {
  describe(`verify store: enqueue (${backend.name})`, () => {
    let db: Db;
    before(async () => {
      db = await freshDb(backend);
    });
    afterEach(() => db.exec("DELETE FROM source_verification_targets; DELETE FROM source_verifications"));
    after(() => closeDb(backend, db));

    it("enqueue_twoProgramsOnOneRelease_listsBothAndQueuesTheSharedContractOnce", async () => {
      const store = new VerifyStore(db);
      const shared = target("release/Points", "aa");
      await store.enqueue("p1", "31337", [shared, target("points", "01")], ["etherscan", "sourcify"]);
      await store.enqueue("p2", "31337", [shared, target("points", "02")], ["etherscan", "sourcify"]);
      assert.deepEqual(
        await db.query(
          "SELECT program_id, address, contract FROM source_verification_targets ORDER BY program_id, address",
        ),
        [
          { program_id: "p1", address: "0x" + "01".repeat(20), contract: "points" },
          { program_id: "p1", address: shared.address, contract: "release/Points" },
          { program_id: "p2", address: "0x" + "02".repeat(20), contract: "points" },
          { program_id: "p2", address: shared.address, contract: "release/Points" },
        ],
      );
      assert.deepEqual(
        await db.query(
          "SELECT address, explorer, artifact, constructor_args, status FROM source_verifications ORDER BY address, explorer",
        ),
        ["01", "02", "aa"].flatMap((b) =>
          (["etherscan", "sourcify"] as const).map((explorer) => ({
            address: "0x" + b.repeat(20),
            explorer,
            artifact: b === "aa" ? "Points" : "ERC1967Proxy",
            constructor_args: "0x" + b,
            status: "pending",
          })),
        ),
      );
    });

    it("enqueue_refusedForOneExplorer_leavesNothingWritten", async () => {
      const explorers = ["etherscan", "nowhere"] as unknown as ExplorerName[];
      await assert.rejects(new VerifyStore(db).enqueue("p1", "31337", [target("points", "01")], explorers));
      assert.deepEqual(await db.query("SELECT count(*)::int AS n FROM source_verification_targets"), [{ n: 0 }]);
      assert.deepEqual(await db.query("SELECT count(*)::int AS n FROM source_verifications"), [{ n: 0 }]);
    });
  });
}
