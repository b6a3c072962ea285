import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiKeys, ProgramRegistry, type Db } from "../src/index.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";
import { programRecord } from "./helpers/records.js";

const TTL = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Two instances on one database: `a` and `b` each cache for TTL ms (DB_CACHE_TTL_MS).
for (const backend of backends()) {
  describe(`db: answers cached per instance on ${backend.name}`, () => {
    let db: Db;
    before(async () => (db = await freshDb(backend)));
    after(() => closeDb(backend, db));

    it("revoke_inThisInstance_rejectsTheKeyAtOnce_andInAnotherInstanceWithinTheCacheTime", async () => {
      const [a, b] = [new ApiKeys(db, TTL), new ApiKeys(db, TTL)];
      const { key, info } = await a.create("cached");
      assert.equal((await a.verify(key))?.id, info.id);
      assert.equal((await b.verify(key))?.id, info.id);
      assert.equal(await a.revoke(info.id), true);
      assert.equal((await a.verify(key))?.id, undefined);
      await sleep(TTL + 50);
      assert.equal((await b.verify(key))?.id, undefined);
    });

    it("verify_anUnknownKey_isNeverCached_soAKeyCreatedElsewhereWorksAtOnce", async () => {
      const [a, b] = [new ApiKeys(db, TTL), new ApiKeys(db, TTL)];
      assert.equal(await b.verify("pk_not_yet"), undefined);
      const { key, info } = await a.create("fresh");
      assert.equal((await b.verify(key))?.id, info.id);
    });

    it("resolve_soleProgram_seesASecondProgramFromThisInstanceAtOnce_andFromAnotherWithinTheCacheTime", async () => {
      const [a, b] = [new ProgramRegistry(db, undefined, TTL), new ProgramRegistry(db, undefined, TTL)];
      await a.insert(programRecord("first"));
      assert.equal((await a.resolve()).id, "first");
      assert.equal((await b.resolve()).id, "first");
      await a.insert(programRecord("second"));
      await assert.rejects(a.resolve(), /program is required/);
      await sleep(TTL + 50);
      await assert.rejects(b.resolve(), /program is required/);
      assert.equal((await b.get("second")).id, "second");
    });
  });
}
