import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDb, type Db } from "../../src/core/db/db.js";
import { migrate, MIGRATIONS } from "../../src/core/db/migrations.js";
import { memoryDbTemplate } from "../../src/core/db/template.js";

/**
 * The PostgreSQL server the tests use (CI starts it: .ci/run). Unreachable means the
 * PostgreSQL tests fail; they are never skipped.
 */
export const PG_TEST_URL = process.env.PG_TEST_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh database on the test server, dropped by `drop()`: runs never share state. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(
      `PostgreSQL is required for these tests and is not reachable at ${PG_TEST_URL} (${(e as Error).message}). ` +
        "Start it (.ci/run does) or point PG_TEST_URL at a server.",
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `points_test_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(PG_TEST_URL, name),
    // FORCE: a test that failed half-way may still hold connections.
    drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/** One database backend under test: how to open a fresh, empty database of that kind. */
export interface Backend {
  name: "pglite" | "postgres";
  /** Called once per suite (before): a fresh database (migrated or not: the migrations' own tests start empty). */
  setup(migrated?: boolean): Promise<void>;
  /** A new connection (pool) to the suite's database. */
  open(): Promise<Db>;
  teardown(): Promise<void>;
}

/**
 * A migrated PGlite database in memory, started from the migrated template (src/core/db/template.ts): an
 * empty one runs initdb and every migration, about 3 CPU-seconds more per open.
 */
export async function memoryDb(): Promise<Db> {
  return openDb({ dataDir: "memory://" }, await memoryDbTemplate());
}

/** PGlite in memory: one instance per suite, every open() shares it (it has one connection). */
function pgliteBackend(): Backend {
  let db: Db | undefined;
  return {
    name: "pglite",
    async setup(migrated = true) {
      db = migrated ? await memoryDb() : await openDb({ dataDir: "memory://" });
    },
    async open() {
      // Closing the shared instance is the suite's job (teardown).
      return { ...db!, close: async () => undefined };
    },
    async teardown() {
      await db?.close();
    },
  };
}

function postgresBackend(): Backend {
  let scratch: ScratchDatabase | undefined;
  return {
    name: "postgres",
    async setup() {
      scratch = await createScratchDatabase();
    },
    open: () => openDb({ databaseUrl: scratch!.url, dataDir: "unused" }),
    async teardown() {
      await scratch?.drop();
    },
  };
}

/** Both backends: the same suite runs on each. */
export const backends = (): Backend[] => [pgliteBackend(), postgresBackend()];

/** A fresh database on `backend` for one suite (`before`), migrated unless `migrated` is false. */
export async function freshDb(backend: Backend, migrated = true): Promise<Db> {
  await backend.setup(migrated);
  const db = await backend.open();
  if (migrated) await migrate(db);
  return db;
}

/** Closes the suite's database and drops it (`after`). */
export async function closeDb(backend: Backend, db: Db | undefined): Promise<void> {
  await db?.close();
  await backend.teardown();
}

/** Applies the migrations before `id`, checking that exactly those ran: the state a release before `id` left. */
export async function migrateUpTo(db: Db, id: string): Promise<void> {
  const ids = MIGRATIONS.map((m) => m.id);
  const at = ids.indexOf(id);
  if (at < 0) throw new Error(`no migration ${id}`);
  assert.deepEqual(await migrate(db, MIGRATIONS.slice(0, at)), ids.slice(0, at));
}
