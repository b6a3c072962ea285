import { migrate, openDb, type Db } from "../../src/index.js";
import { createScratchDatabase } from "../../test/helpers/db.js";

/** Runs `fn` on a migrated ledger in a scratch PostgreSQL database (PG_TEST_URL), dropped after. */
export async function withScratchLedger(fn: (db: Db) => Promise<void>): Promise<void> {
  const scratch = await createScratchDatabase();
  const db = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
  try {
    await migrate(db);
    await fn(db);
  } finally {
    await db.close();
    await scratch.drop();
  }
}
