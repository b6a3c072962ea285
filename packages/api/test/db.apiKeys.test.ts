import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ApiKeys, type Db } from "../src/index.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";

for (const backend of backends()) {
  describe(`db: API keys on ${backend.name}`, () => {
    let db: Db;
    let keys: ApiKeys;

    before(async () => {
      db = await freshDb(backend);
      keys = new ApiKeys(db);
    });
    after(() => closeDb(backend, db));

    it("create_returnsTheKeyOnce_andStoresOnlyItsSha256", async () => {
      const { key, info } = await keys.create("partner");
      assert.match(key, /^pk_[A-Za-z0-9_-]{43}$/);
      assert.equal(info.prefix, key.slice(0, 10));
      assert.equal(info.revokedAt, null);
      const rows = await db.query<Record<string, unknown>>("SELECT * FROM api_keys WHERE id = $1", [info.id]);
      assert.equal(rows[0].key_hash, createHash("sha256").update(key).digest("hex"));
      assert.ok(!JSON.stringify(rows).includes(key), "the plain key is stored nowhere");
    });

    it("verify_aValidKey_returnsItsId_andAnUnknownKeyNothing", async () => {
      const { key, info } = await keys.create("verify");
      assert.deepEqual(await keys.verify(key), { id: info.id, scopes: ["build", "read"] });
      assert.equal(await keys.verify(`${key}x`), undefined);
      assert.equal(await keys.verify("pk_unknown"), undefined);
    });

    it("revoke_makesTheKeyFailVerification_andASecondRevokeReportsNothingToDo", async () => {
      const { key, info } = await keys.create("revoked");
      assert.equal(await keys.revoke(info.id), true);
      assert.equal(await keys.verify(key), undefined);
      assert.equal(await keys.revoke(info.id), false);
      const listed = (await keys.list()).find((k) => k.id === info.id)!;
      assert.notEqual(listed.revokedAt, null);
    });

    it("list_returnsEveryKeyInCreationOrder_withoutHashesOrKeys", async () => {
      const listed = await keys.list();
      assert.deepEqual(
        listed.map((k) => k.name),
        ["partner", "verify", "revoked"],
      );
      for (const k of listed)
        assert.deepEqual(Object.keys(k).sort(), ["createdAt", "id", "name", "prefix", "revokedAt", "scopes"]);
    });
  });
}
