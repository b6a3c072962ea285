import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createService, loadConfig, memoryDbTemplate, migrate, openDb, type Db } from "../src/index.js";
import { MIGRATIONS } from "../src/core/db/migrations.js";
import { backends, closeDb, freshDb, migrateUpTo, createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { programRecord } from "./helpers/records.js";

const ids = MIGRATIONS.map((m) => m.id);
const applied = async (db: Db) =>
  (await db.query<{ id: string }>("SELECT id FROM schema_migrations ORDER BY id")).map((r) => r.id);

// A config with no chain traffic: building the service never touches its RPC URL.
const serviceEnv = (env: Record<string, string>) =>
  loadConfig({ PORT: "0", LOG_LEVEL: "silent", DATA_DIR: "memory://", ...env });

for (const backend of backends()) {
  describe(`migrations on ${backend.name} (one SQL dialect, one migration list)`, () => {
    let db: Db;
    before(async () => (db = await freshDb(backend, false)));
    after(() => closeDb(backend, db));

    it("migrate_aFreshDatabase_appliesEveryMigrationInOrder_andRecordsEach", async () => {
      assert.deepEqual(await migrate(db), ids);
      assert.deepEqual(await applied(db), ids);
      const tables = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      assert.deepEqual(
        tables.map((t) => t.table_name),
        [
          "api_keys",
          "build_idempotency",
          "chain_assets",
          "console_dev_mailbox",
          "console_sessions",
          "console_users",
          "deployer_manifests",
          "engine_kept_txs",
          "executor_leases",
          "executor_status",
          "ledger_allowlists",
          "ledger_blocks",
          "ledger_campaign_members",
          "ledger_campaign_minters",
          "ledger_campaigns",
          "ledger_cursors",
          "ledger_events",
          "ledger_leases",
          "ledger_programs",
          "ledger_psp_balances",
          "ledger_role_holders",
          "ledger_sp_balances",
          "login_code_attempts",
          "login_codes",
          "login_failures",
          "onboarding_tasks",
          "programs",
          "rate_limit_hits",
          "redemption_decisions",
          "redemption_desk_holds",
          "redemption_desk_spend",
          "redemption_desks",
          "safe_proposal_signatures",
          "safe_proposals",
          "schema_migrations",
          "siwe_nonces",
          "source_verification_targets",
          "source_verifications",
          "webhook_deliveries",
          "webhook_subscriptions",
        ],
      );
    });

    it("migrate_again_appliesNothing", async () => {
      assert.deepEqual(await migrate(db), []);
      assert.deepEqual(await applied(db), ids);
    });

    it("migrate_appliesByIdNotByPlaceInTheList_soBranchesMergedInAnyOrderStayOrdered", async () => {
      // 911 depends on 910: listed after it (a merge appended it last), it still runs second.
      const merged = [
        { id: "911_uses_t_first", sql: "ALTER TABLE t_first ADD COLUMN y INT" },
        { id: "910_t_first", sql: "CREATE TABLE t_first (x INT)" },
      ];
      assert.deepEqual(await migrate(db, [...MIGRATIONS, ...merged]), ["910_t_first", "911_uses_t_first"]);
      await db.exec(
        "DROP TABLE t_first; DELETE FROM schema_migrations WHERE id IN ('910_t_first', '911_uses_t_first')",
      );
    });

    it("migrate_whenALaterMigrationFails_rollsBackTheWholeRun", async () => {
      const extra = [
        { id: "900_ok", sql: "CREATE TABLE t_ok (x INT)" },
        { id: "901_bad", sql: "CREATE TABLE t_bad (x NO_SUCH_TYPE)" },
      ];
      await assert.rejects(migrate(db, [...MIGRATIONS, ...extra]));
      assert.deepEqual(await applied(db), ids);
      const leftover = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 't_ok'");
      assert.equal(leftover.length, 0);
    });
  });
}

for (const backend of backends()) {
  describe(`migration 004 on ${backend.name}: task owner and structured errors`, () => {
    let db: Db;
    before(async () => (db = await freshDb(backend, false)));
    after(() => closeDb(backend, db));

    it("migrate_tasksWrittenBefore004_keepTheirOwner_andTheirTextErrorAsTheMessage", async () => {
      await migrateUpTo(db, "004_task_owner_and_structured_error");
      await db.query(
        `INSERT INTO onboarding_tasks (id, api_key_id, request_hash, request, brand, chain_id, status, error)
         VALUES ('t1', 'key-1', 'h', '{}', 'old', '31337', 'failed', 'validate failed: no funds'),
                ('t2', NULL, 'h', '{}', 'fine', '31337', 'queued', NULL)`,
      );
      assert.deepEqual(await migrate(db), ids.slice(ids.indexOf("004_task_owner_and_structured_error")));
      const rows = await db.query<{ id: string; owner: string | null; error: unknown }>(
        "SELECT id, owner, error FROM onboarding_tasks ORDER BY id",
      );
      const error = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
      assert.deepEqual(
        rows.map((r) => [r.id, r.owner, error(r.error)]),
        [
          ["t1", "key-1", { stage: null, code: "INTERNAL", message: "validate failed: no funds" }],
          ["t2", null, null],
        ],
      );
    });
  });
}

describe("db: migrations by several instances sharing one PostgreSQL", () => {
  let scratch: ScratchDatabase;
  before(async () => (scratch = await createScratchDatabase()));
  after(async () => scratch?.drop());

  it("createService_twoInstancesOnAFreshDatabaseAtOnce_applyEachMigrationExactlyOnce", async () => {
    const config = serviceEnv({ DATABASE_URL: scratch.url });
    const services = await Promise.all([createService(config), createService(config)]);
    try {
      assert.deepEqual(
        services.map((s) => s.ctx.db.kind),
        ["postgres", "postgres"],
      );
      const rows = await services[0].ctx.db.query<{ id: string; n: string }>(
        "SELECT id, count(*) AS n FROM schema_migrations GROUP BY id ORDER BY id",
      );
      assert.deepEqual(
        rows.map((r) => [r.id, Number(r.n)]),
        ids.map((id) => [id, 1]),
      );
    } finally {
      await Promise.all(services.map((s) => s.close()));
    }
  });

  it("migrate_fromFourPoolsAtOnce_runsEachNewMigrationOnce_evenOneThatIsNotIdempotent", async () => {
    // The INSERT would count 4 if the lock let instances interleave.
    const extra = [
      { id: "910_counter", sql: "CREATE TABLE migration_runs (n INT NOT NULL)" },
      { id: "911_count", sql: "INSERT INTO migration_runs (n) VALUES (1)" },
    ];
    const pools = await Promise.all([1, 2, 3, 4].map(() => openDb({ databaseUrl: scratch.url, dataDir: "unused" })));
    try {
      const runs = await Promise.all(pools.map((p) => migrate(p, [...MIGRATIONS, ...extra])));
      assert.deepEqual(runs.flat().sort(), ["910_counter", "911_count"]);
      const [{ n }] = await pools[0].query<{ n: string }>("SELECT count(*) AS n FROM migration_runs");
      assert.equal(Number(n), 1);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});

describe("db: embedded database (no server, DATABASE_URL unset)", () => {
  let dir: string;
  const saved = process.env.DATABASE_URL;
  before(() => {
    delete process.env.DATABASE_URL;
    dir = mkdtempSync(join(tmpdir(), "points-pglite-"));
  });
  after(() => {
    if (saved !== undefined) process.env.DATABASE_URL = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it("createService_withoutDatabaseUrl_usesPglite_andKeepsDataInDataDirAcrossRestarts", async () => {
    const config = loadConfig({ ...process.env, PORT: "0", LOG_LEVEL: "silent", DATA_DIR: dir });
    assert.equal(config.databaseUrl, undefined);
    const first = await createService(config);
    assert.equal(first.ctx.db.kind, "pglite");
    await first.ctx.programs.insert(programRecord("persisted"));
    await first.close();

    const second = await createService(config);
    try {
      assert.equal((await second.ctx.programs.get("persisted")).brand, "persisted");
      assert.deepEqual(await applied(second.ctx.db), ids);
      assert.deepEqual(await migrate(second.ctx.db), []);
    } finally {
      await second.close();
    }
  });
});

describe("db: migrated template for in-memory databases", () => {
  it("createService_fromTheTemplate_hasEveryMigrationApplied_andNothingPending", async () => {
    const config = serviceEnv({});
    const service = await createService(config, { memoryDbSeed: await memoryDbTemplate() });
    try {
      assert.deepEqual(await applied(service.ctx.db), ids);
      assert.deepEqual(await migrate(service.ctx.db), []);
      // A database of its own: what one service writes, another started from the same template does not see.
      await service.ctx.programs.insert(programRecord("mine"));
      const other = await createService(config, { memoryDbSeed: await memoryDbTemplate() });
      try {
        assert.deepEqual(await other.ctx.db.query("SELECT id FROM programs"), []);
      } finally {
        await other.close();
      }
    } finally {
      await service.close();
    }
  });

  it("memoryDbTemplate_ofAnotherMigrationList_isAnotherArchive_holdingExactlyThoseMigrations", async () => {
    const fewer = MIGRATIONS.slice(0, 3);
    const db = await openDb({ dataDir: "memory://" }, await memoryDbTemplate(fewer));
    try {
      assert.deepEqual(await applied(db), ids.slice(0, 3));
      assert.deepEqual(await migrate(db), ids.slice(3));
    } finally {
      await db.close();
    }
  });
});
