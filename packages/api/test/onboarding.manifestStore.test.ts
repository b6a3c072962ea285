import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ProgramRecord, Release } from "@points/deployer";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import type { Db } from "../src/core/db/db.js";
import { memoryDb } from "./helpers/db.js";

const CHAIN = 31337n;
const release = (version: string, createdAt: string, chainId = CHAIN) =>
  ({ chainId, version, programFactory: "0x" + "11".repeat(20), createdAt }) as unknown as Release;
const program = (brand: string) => ({ chainId: CHAIN, brand, version: "1.0.0" }) as unknown as ProgramRecord;

/** The store over a database that counts its queries, the rows they answer and the bodies among them. */
function counting(db: Db, remember?: number) {
  let queries = 0;
  let rows = 0;
  let bodies = 0;
  const counted: Db = {
    ...db,
    query: async (sql, params) => {
      queries += 1;
      const answer = await db.query(sql, params);
      rows += answer.length;
      bodies += answer.filter((r) => typeof (r as { body?: unknown }).body === "string").length;
      return answer as never;
    },
  };
  return {
    store: new DbManifestStore(counted, remember),
    queries: () => queries,
    rows: () => rows,
    bodies: () => bodies,
  };
}

// Every onboarding task asks for the chain's releases; the chain holds one manifest per program.
describe("onboarding manifest store: a chain's releases are found without reading its programs", () => {
  it("getReleases_readsOnlyReleaseKeys_whateverTheNumberOfPrograms", async () => {
    const db = await memoryDb();
    try {
      const { store, rows } = counting(db);
      await store.saveRelease(release("1.0.0", "2026-01-01T00:00:00.000Z"));
      await store.saveRelease(release("1.1.0", "2026-02-01T00:00:00.000Z"));
      await store.saveRelease(release("9.9.9", "2026-03-01T00:00:00.000Z", 5n));
      // "release" is a valid brand: its manifest is a program's, not a release's.
      for (const brand of ["release", ...Array.from({ length: 30 }, (_, i) => `brand${i}`)]) {
        await store.saveProgram(program(brand));
      }

      const before = rows();
      const releases = await store.getReleases(CHAIN);
      assert.deepEqual(
        releases.map((r) => r.version),
        ["1.0.0", "1.1.0"],
      );
      // Two keys and two manifests: not the 31 program keys beside them.
      assert.equal(rows() - before, 4);

      assert.equal((await store.getRelease(CHAIN))?.version, "1.1.0");
      const programs = await store.getPrograms(CHAIN);
      assert.equal(programs.length, 31);
      assert.ok(programs.some((p) => p.brand === "release"));
    } finally {
      await db.close();
    }
  });
});

// Every stage update of a task reads its manifest first; the body is the bulk of what is read.
describe("onboarding manifest store: a manifest this instance holds crosses from the database only when it changed", () => {
  it("read_afterOwnWrite_answersFromMemory_butAnotherInstancesWriteIsRead", async () => {
    const db = await memoryDb();
    try {
      const a = counting(db);
      const b = new DbManifestStore(db);
      await a.store.saveProgram({ ...program("acme"), version: "1.0.0" });
      assert.equal((await a.store.getProgram(CHAIN, "acme"))?.version, "1.0.0");
      assert.equal((await a.store.getProgram(CHAIN, "acme"))?.version, "1.0.0");
      assert.equal(a.bodies(), 0, "its own write: no body read back");

      await b.saveProgram({ ...program("acme"), version: "2.0.0" });
      assert.equal((await a.store.getProgram(CHAIN, "acme"))?.version, "2.0.0", "another instance's write is seen");
      assert.equal(a.bodies(), 1);
      assert.equal((await a.store.getProgram(CHAIN, "acme"))?.version, "2.0.0");
      assert.equal(a.bodies(), 1, "held again once read");
    } finally {
      await db.close();
    }
  });

  it("held_isBounded_theOldestManifestIsReadAgain", async () => {
    const db = await memoryDb();
    try {
      const { store, bodies } = counting(db, 2);
      for (const brand of ["one", "two", "three"]) await store.saveProgram(program(brand));
      assert.equal((await store.getProgram(CHAIN, "three"))?.brand, "three");
      assert.equal((await store.getProgram(CHAIN, "two"))?.brand, "two");
      assert.equal(bodies(), 0);
      assert.equal((await store.getProgram(CHAIN, "one"))?.brand, "one");
      assert.equal(bodies(), 1, "the first of three was let go with room for two");
    } finally {
      await db.close();
    }
  });
});

// A task writes its manifest before and after every transaction of every stage.
describe("onboarding manifest store: an update of a manifest this instance holds is one statement", () => {
  const ctx = { chainId: CHAIN, brand: "acme" };
  const tx = (hash: string) => ({ hash, nonce: 0, from: "0x" + "22".repeat(20) }) as never;

  it("stageUpdates_afterTheFirst_takeOneQueryEach", async () => {
    const db = await memoryDb();
    try {
      const { store, queries } = counting(db);
      await store.stageStarted(ctx, "deploy");
      const before = queries();
      await store.stageTransaction(ctx, "deploy", tx("0x01"));
      await store.stageAddresses(ctx, "deploy", { points: "0x" + "33".repeat(20) });
      await store.stageFinished(ctx, "deploy", "done");
      assert.equal(queries() - before, 3);
      const deploy = (await store.getStages(ctx))?.deploy;
      assert.equal(deploy?.status, "done");
      assert.deepEqual(
        deploy?.transactions.map((t) => t.hash),
        ["0x01"],
      );
      assert.deepEqual(deploy?.addresses, { points: "0x" + "33".repeat(20) });
    } finally {
      await db.close();
    }
  });

  it("anotherInstancesWrite_betweenTwoUpdates_isKept", async () => {
    const db = await memoryDb();
    try {
      const a = new DbManifestStore(db);
      const b = new DbManifestStore(db);
      await a.stageStarted(ctx, "deploy");
      await a.stageTransaction(ctx, "deploy", tx("0x01"));
      await b.stageTransaction(ctx, "deploy", tx("0x02"));
      // a holds the manifest as it wrote it, without b's transaction: its next write is refused and redone.
      await a.stageTransaction(ctx, "deploy", tx("0x03"));
      assert.deepEqual(
        (await new DbManifestStore(db).getStages(ctx))?.deploy?.transactions.map((t) => t.hash),
        ["0x01", "0x02", "0x03"],
      );
    } finally {
      await db.close();
    }
  });
});
