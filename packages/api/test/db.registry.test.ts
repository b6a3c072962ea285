import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiError, ProgramRegistry, type Db } from "../src/index.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";
import { programRecord } from "./helpers/records.js";

// The same suite on the embedded database and on the real PostgreSQL server
// (docs/architecture.md#persistence-and-scale).
for (const backend of backends()) {
  describe(`db: program registry on ${backend.name}`, () => {
    let db: Db;
    let registry: ProgramRegistry;

    before(async () => {
      db = await freshDb(backend);
      registry = new ProgramRegistry(db);
    });
    after(() => closeDb(backend, db));

    it("resolve_withNoProgramRegistered_is404NotFound", async () => {
      await assert.rejects(registry.resolve(), (e: ApiError) => e.code === "NOT_FOUND");
    });

    it("insert_thenFindByIdOrFactoryAddressInAnyCase_returnsTheSameRecord", async () => {
      const record = programRecord("acme", { metadata: { tier: "gold", n: 1 } });
      const saved = await registry.insert(record);
      assert.equal(saved.id, "acme");
      assert.equal(saved.blockNumber, 12_345_678);
      assert.deepEqual(saved.metadata, { tier: "gold", n: 1 });
      assert.equal(new Date(saved.createdAt).toISOString(), saved.createdAt);
      assert.deepEqual(await registry.get("acme"), saved);
      assert.deepEqual(await registry.get(record.factory.toLowerCase()), saved);
      assert.deepEqual(await registry.get(record.factory), saved);
    });

    it("resolve_withOneProgram_andNoRef_returnsThatProgram", async () => {
      assert.equal((await registry.resolve()).id, "acme");
    });

    it("insert_sameBrandAgain_is409Conflict", async () => {
      await assert.rejects(registry.insert(programRecord("acme")), (e: ApiError) => e.code === "CONFLICT");
    });

    it("insert_sameFactoryOnTheSameChain_is409Conflict", async () => {
      const factory = (await registry.get("acme")).factory;
      await assert.rejects(
        registry.insert(programRecord("other", { factory })),
        (e: ApiError) => e.code === "CONFLICT",
      );
    });

    it("insert_sameBrandByTwoCallersAtOnce_storesOne_andTheOtherIsConflict", async () => {
      // On PostgreSQL both callers may pass the pre-check; the UNIQUE constraint must decide.
      const results = await Promise.allSettled([
        registry.insert(programRecord("race")),
        registry.insert(programRecord("race")),
        registry.insert(programRecord("race")),
      ]);
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
      for (const r of results.filter((r) => r.status === "rejected")) {
        assert.equal(((r as PromiseRejectedResult).reason as ApiError).code, "CONFLICT");
      }
      assert.equal((await registry.list()).filter((p) => p.brand === "race").length, 1);
    });

    it("listByChain_returnsOnlyThatChainsPrograms_inCreationOrder", async () => {
      await registry.insert(programRecord("beta", { chainId: "8453" }));
      assert.deepEqual(
        (await registry.listByChain("31337")).map((p) => p.id),
        ["acme", "race"],
      );
      assert.deepEqual(
        (await registry.listByChain("8453")).map((p) => p.id),
        ["beta"],
      );
      assert.deepEqual(
        (await registry.list()).map((p) => p.id),
        ["acme", "race", "beta"],
      );
    });

    it("resolve_withSeveralPrograms_andNoRef_is400InvalidInput_unlessADefaultIsConfigured", async () => {
      await assert.rejects(registry.resolve(), (e: ApiError) => e.code === "INVALID_INPUT");
      assert.equal((await new ProgramRegistry(db, "beta").resolve()).id, "beta");
      assert.equal((await registry.resolve("race")).id, "race");
    });

    it("get_unknownIdOrFactory_is404NotFound", async () => {
      await assert.rejects(registry.get("nope"), (e: ApiError) => e.code === "NOT_FOUND");
      await assert.rejects(registry.get(programRecord("x").factory), (e: ApiError) => e.code === "NOT_FOUND");
    });
  });
}
