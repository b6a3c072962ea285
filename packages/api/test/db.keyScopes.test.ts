import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiKeys, migrate, type Db } from "../src/index.js";
import { MIGRATIONS } from "../src/core/db/migrations.js";
import { ConsoleUsers } from "../src/core/console/users.js";
import { backends, closeDb, freshDb, migrateUpTo } from "./helpers/db.js";

const ids = MIGRATIONS.map((m) => m.id);

for (const backend of backends()) {
  describe(`migration 005 on ${backend.name}: key scopes and deploy approval`, () => {
    let db: Db;
    before(async () => (db = await freshDb(backend, false)));
    after(() => closeDb(backend, db));

    it("migrate_keysMadeBeforeScopes_keepBuildReadDeploy_newKeysGetBuildRead_andNoAccountIsApproved", async () => {
      await migrateUpTo(db, "006_key_scopes_and_deploy_approval");
      await db.query("INSERT INTO api_keys (id, name, key_hash, prefix) VALUES ('old', 'old', 'h', 'pk_old')");
      await db.query("INSERT INTO console_users (email) VALUES ('early@example.com')");
      assert.deepEqual(await migrate(db), ids.slice(ids.indexOf("006_key_scopes_and_deploy_approval")));
      const keys = new ApiKeys(db);
      const fresh = await keys.create("fresh");
      assert.deepEqual(
        (await keys.list()).map((k) => [k.id, k.scopes]),
        [
          ["old", ["build", "read", "deploy"]],
          [fresh.info.id, ["build", "read"]],
        ],
      );
      assert.deepEqual(await new ConsoleUsers(db).list().then((l) => l.map((u) => [u.email, u.deployApproved])), [
        ["early@example.com", false],
      ]);
    });
  });
}
