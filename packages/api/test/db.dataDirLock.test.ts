import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type Db } from "../src/index.js";
import { DataDirInUseError } from "../src/core/db/dataDirLock.js";
import { CLI, PKG, cli, run } from "./helpers/cli.js";

describe("the embedded database belongs to one process: a second opener is refused, not given a split view", () => {
  let dir: string;
  before(async () => {
    if (!existsSync(CLI)) await run("pnpm", ["run", "build"], { cwd: PKG });
    dir = mkdtempSync(join(tmpdir(), "points-lock-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("open_refusesAFolderAnotherOpenerHolds_andSucceedsOnceItCloses", async () => {
    const dataDir = join(dir, "a");
    const first = await openDb({ dataDir });
    try {
      await assert.rejects(openDb({ dataDir }), (e) => e instanceof DataDirInUseError && e.dataDir === dataDir);
    } finally {
      await first.close();
    }
    const second = await openDb({ dataDir });
    assert.deepEqual(await second.query<{ one: number }>("select 1 as one"), [{ one: 1 }]);
    await second.close();
  });

  it("open_takesOverTheStaleLockOfAProcessThatDied", async () => {
    const dataDir = join(dir, "b");
    // What a killed process leaves: the lock directory, no longer refreshed.
    mkdirSync(join(dataDir, "points-api.lock"), { recursive: true });
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(dataDir, "points-api.lock"), old, old);
    const db: Db = await openDb({ dataDir });
    await db.close();
  });

  it("operatorCli_againstAHeldFolder_exits1_sayingSo_andWritesNothing", async () => {
    const dataDir = join(dir, "c");
    const running = await openDb({ dataDir });
    try {
      const res = await cli(dataDir, ["accounts", "approve", "ops@example.com"]);
      assert.equal(res.code, 1);
      assert.match(res.stderr, /the embedded database in .* is in use by another process/);
      assert.doesNotMatch(res.stdout, /approved/);
    } finally {
      await running.close();
    }
  });
});
