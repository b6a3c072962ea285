import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Db } from "../src/core/db/db.js";
import { createMetrics } from "../src/core/metrics/index.js";
import { memoryDb } from "./helpers/db.js";

// The pool gauge must show the pool as the scrape found it: a scrape runs every gauge's query
// at once, and a pool read after they started counts them as waiting.
describe("metrics: points_db_pool_connections", () => {
  it("scrape_readsThePoolBeforeItsOwnQueries_waitingIsTheWorkloadsNotTheScrapes", async () => {
    // The real schema (embedded), behind a pool of one busy connection: every query waits
    // until the one before it is done.
    const real = await memoryDb();
    let queued = 0;
    let chain = Promise.resolve();
    const db = {
      ...real,
      query: (sql: string, params?: unknown[]) => {
        queued += 1;
        const run = chain.then(() => real.query(sql, params)).finally(() => (queued -= 1));
        chain = run.then(
          () => undefined,
          () => undefined,
        );
        return run;
      },
      poolStats: () => ({ total: 1, idle: 0, waiting: queued }),
    } as Db;
    const text = await createMetrics({ db, chains: [] }).scrape();
    const line = (state: string) =>
      text.split("\n").find((l) => l.startsWith(`points_db_pool_connections{state="${state}"}`));
    assert.deepEqual(["total", "idle", "waiting"].map(line), [
      'points_db_pool_connections{state="total"} 1',
      'points_db_pool_connections{state="idle"} 0',
      'points_db_pool_connections{state="waiting"} 0',
    ]);
  });
});
