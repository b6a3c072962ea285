import { mkdirSync } from "node:fs";
import { lockDataDir } from "./dataDirLock.js";

/** The SQL both backends share: PostgreSQL dialect, `$1` placeholders. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction on one connection. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The connection pool's counts, for metrics (PostgreSQL only: PGlite has one connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** The embedded database's data directory as an archive (PGlite only). */
  dumpDataDir?(): Promise<Blob>;
}

/**
 * PostgreSQL when `databaseUrl` is set, otherwise embedded PostgreSQL (PGlite) in `dataDir`. An in-memory database
 * (`memory://`) starts from `memorySeed` when given (a data-directory archive, see `memoryDbTemplate`).
 */
export async function openDb(opts: { databaseUrl?: string; dataDir: string }, memorySeed?: Blob): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir, memorySeed);
}

async function openPglite(dataDir: string, memorySeed?: Blob): Promise<Db> {
  const { PGlite } = await import("@electric-sql/pglite");
  let release: () => Promise<void> = async () => undefined;
  if (dataDir !== "memory://") {
    mkdirSync(dataDir, { recursive: true });
    release = await lockDataDir(dataDir, (e) => console.warn(`points-api: ${e.message}`));
  }
  let pg;
  try {
    pg = await PGlite.create(
      dataDir === "memory://" && memorySeed ? { dataDir, loadDataDir: memorySeed } : { dataDir },
    );
  } catch (e) {
    await release();
    throw e;
  }
  return {
    kind: "pglite",
    query: async <T>(sql: string, params: unknown[] = []) => (await pg.query<T>(sql, params)).rows,
    exec: async (sql) => void (await pg.exec(sql)),
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: async <T>(s: string, p: unknown[] = []) => (await tx.query<T>(s, p)).rows,
          exec: async (s) => void (await tx.exec(s)),
        }),
      ),
    close: async () => {
      await pg.close();
      await release();
    },
    dumpDataDir: () => pg.dumpDataDir("none"),
  };
}

async function openPostgres(url: string): Promise<Db> {
  const { default: pg } = await import("pg");
  // BIGINT as string keeps every value exact; callers convert.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle connection the server closed (restart, failover, an administrator's termination):
  // the pool drops it and the next query opens another. Unhandled, the event would end the process.
  pool.on("error", () => undefined);
  await pool.query("select 1");
  return {
    kind: "postgres",
    query: async (sql, params = []) => (await pool.query(sql, params)).rows,
    exec: async (sql) => void (await pool.query(sql)),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: async (s, p = []) => (await client.query(s, p)).rows,
          exec: async (s) => void (await client.query(s)),
        });
        await client.query("commit");
        return result;
      } catch (e) {
        await client.query("rollback").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
